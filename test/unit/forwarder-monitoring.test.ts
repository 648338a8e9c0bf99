/**
 * infra/monitoring: the PodMonitor scrapes the pods the forwarder Deployment runs, on the port it
 * serves /metrics on; the Grafana dashboard charts every metric the forwarder exports (read from
 * its own Prometheus registry) and nothing it does not export; the alerting rules query those too.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { createMetrics } from '../../lib/forwarder/metrics.js';

const ROOT = resolve(import.meta.dirname, '../..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const yaml = (path: string) => parse(readFileSync(join(ROOT, path), 'utf8'));
const dashboard = JSON.parse(readFileSync(join(ROOT, 'infra/monitoring/grafana-dashboard.json'), 'utf8'));
const expressions: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));

/** Series names as Prometheus stores them (histograms as _bucket, _sum and _count). */
async function exported(): Promise<Map<string, string>> {
  const json = await createMetrics({ defaultMetrics: true }).registry.getMetricsAsJSON();
  const names = new Map<string, string>();
  for (const m of json) {
    if (String(m.type) === 'histogram')
      for (const s of ['_bucket', '_sum', '_count']) names.set(`${m.name}${s}`, m.name);
    else names.set(m.name, m.name);
  }
  return names;
}

describe('forwarder monitoring', () => {
  it('the PodMonitor selects the forwarder pods and scrapes the container port serving /metrics', () => {
    const monitor = yaml('infra/monitoring/podmonitor.yaml');
    const deployment = yaml('infra/forwarder/k8s/host/deployment.yaml');
    const host = yaml('infra/forwarder/k8s/host/kustomization.yaml');
    expect(monitor.kind).toBe('PodMonitor');
    expect(monitor.metadata.namespace).toBe(host.namespace);
    expect(deployment.spec.template.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    const [endpoint] = monitor.spec.podMetricsEndpoints;
    const container = deployment.spec.template.spec.containers[0];
    const port = container.ports.find((p: any) => p.name === endpoint.port);
    expect(port).toBeDefined();
    expect(container.args).toContain(`--port=${port.containerPort}`);
    expect(endpoint.path).toBe('/metrics');
  });

  it('the kustomization ships the dashboard for Grafana`s sidecar', () => {
    const k = yaml('infra/monitoring/kustomization.yaml');
    expect(k.resources).toEqual(['podmonitor.yaml', 'prometheusrule.yaml']);
    const [generator] = k.configMapGenerator;
    expect(generator.files).toEqual(['grafana-dashboard.json']);
    expect(generator.options.labels).toEqual({ grafana_dashboard: '1' });
  });

  it('the dashboard charts every forwarder metric', async () => {
    const names = await exported();
    const charted = new Set(expressions.flatMap((e) => e.match(/\b[a-z0-9_]+(?=\{|\[| *\))/g) ?? []));
    const forwarder = [...new Set([...names.values()].filter((n) => n.startsWith('forwarder_')))];
    const missing = forwarder.filter((n) => ![...charted].some((c) => names.get(c) === n));
    expect(missing).toEqual([]);
  });

  it('every series it queries is one the forwarder exports, filtered by the namespace variable', async () => {
    const names = await exported();
    for (const expr of expressions) {
      const series = [...expr.matchAll(/\b([a-z0-9_]+)\{namespace=~"\$namespace"\}/g)].map((m) => m[1]!);
      expect(series.length, expr).toBeGreaterThan(0);
      for (const s of series) expect(names.has(s), `${s} in ${expr}`).toBe(true);
      // no series without the namespace filter
      const bare = expr.replace(/\b[a-z0-9_]+\{namespace=~"\$namespace"\}/g, '');
      expect(bare, expr).not.toMatch(/\b(forwarder|process|nodejs)_[a-z0-9_]+\b/);
    }
    const variables = dashboard.templating.list.map((v: any) => v.name);
    expect(variables).toEqual(['datasource', 'namespace']);
    for (const p of dashboard.panels) expect(p.datasource.uid).toBe('${datasource}');
  });

  it.skipIf(!hasKubectl)(
    'renders with kubectl kustomize: PodMonitor, PrometheusRule, dashboard ConfigMap',
    () => {
      const out = execFileSync('kubectl', ['kustomize', join(ROOT, 'infra/monitoring')], {
        encoding: 'utf8',
      });
      const docs = parseAllDocuments(out).map((d) => d.toJS());
      expect(docs.map((d) => d.kind).sort()).toEqual(['ConfigMap', 'PodMonitor', 'PrometheusRule']);
      const configMap = docs.find((d) => d.kind === 'ConfigMap');
      expect(JSON.parse(configMap.data['grafana-dashboard.json'])).toEqual(dashboard);
      for (const d of docs) expect(d.metadata.namespace).toBe('multicluster-forwarder');
    },
  );

  it('the alerting rules query only series the forwarder exports, in its namespace, and say what to check', async () => {
    const names = await exported();
    const rule = yaml('infra/monitoring/prometheusrule.yaml');
    const host = yaml('infra/forwarder/k8s/host/kustomization.yaml');
    const rules = rule.spec.groups.flatMap((g: any) => g.rules);
    expect(rules.map((r: any) => r.alert)).toContain('MulticlusterForwarderNoLeader');
    for (const r of rules) {
      const series = [...String(r.expr).matchAll(/\b([a-z0-9_]+)\{namespace="([^"]+)"\}/g)];
      expect(series.length, r.alert).toBeGreaterThan(0);
      for (const [, name, namespace] of series) {
        expect(names.has(name!), `${r.alert}: ${name}`).toBe(true);
        expect(namespace).toBe(host.namespace);
      }
      expect(r.annotations.summary, r.alert).toBeTruthy();
      expect(r.annotations.description, r.alert).toBeTruthy();
    }
  });

  it('lays panels out without overlaps', () => {
    const cells = new Set<string>();
    for (const p of dashboard.panels) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++)
        for (let j = y; j < y + h; j++) {
          expect(cells.has(`${i},${j}`), p.title).toBe(false);
          cells.add(`${i},${j}`);
        }
    }
  });
});
