/**
 * A topology as a Mermaid flowchart (left to right): object → Region → load balancer → listeners
 * → rules → target groups → clusters → targets, weights on the edges, pending changes, drains and
 * blocked clusters styled. Paste it into any Mermaid renderer (GitHub renders ```mermaid blocks).
 */
import type { ActionNode, LoadBalancerNode, Pending, Topology } from './types.js';

/** Mermaid node text: quotes and angle brackets would end the label; `<br/>` breaks lines. */
function label(...lines: Array<string | undefined>): string {
  const text = lines
    .filter((l): l is string => l !== undefined && l !== '')
    .map((l) => l.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;'))
    .join('<br/>');
  return `"${text}"`;
}

const pendingText = (p: Pending): string | undefined => (p ? `(${p} pending)` : undefined);
const pendingClass = (p: Pending): string => (p ? `:::${p === 'delete' ? 'draining' : 'pending'}` : '');

function actionText(a: ActionNode): string {
  if (a.type === 'redirect') return `redirect ${a.statusCode} to ${a.protocol}:${a.port}`;
  if (a.type === 'fixed-response') return `fixed response ${a.statusCode}`;
  return 'forward';
}

export function toMermaid(t: Topology): string {
  const out: string[] = ['flowchart LR'];
  const ids = new Map<string, string>();
  const id = (key: string): string => {
    let v = ids.get(key);
    if (!v) {
      v = `n${ids.size + 1}`;
      ids.set(key, v);
    }
    return v;
  };
  const obj = id('object');
  out.push(`  ${obj}[${label(t.object.kind, `${t.object.namespace}/${t.object.name}`)}]`);
  if (t.error) {
    // Over Regions a failed Region's plan is told beside the Regions that could be drawn.
    const head = t.regions.length === 0 ? 'no load balancer' : 'not drawn';
    out.push(`  ${id('error')}[${label(head, t.error)}]:::blocked`);
    out.push(`  ${obj} --> ${id('error')}`);
  }
  for (const door of t.frontDoors) {
    out.push(
      `  ${id(`door:${door.id}`)}[${label(door.kind, door.name, ...door.addresses, door.listeners.join(', '), pendingText(door.pending))}]${pendingClass(door.pending)}`,
    );
    out.push(`  ${obj} --> ${id(`door:${door.id}`)}`);
  }
  for (const region of t.regions) {
    out.push(`  subgraph ${id(`region:${region.region}`)}[${label(`Region ${region.region}`)}]`);
    for (const lb of region.loadBalancers) drawLoadBalancer(out, id, region.region, lb);
    out.push('  end');
    for (const door of t.frontDoors) {
      const w = door.regions.find((r) => r.region === region.region);
      if (w) {
        const text = `dial ${w.weight}%${w.pending ? ` (${w.pending} pending)` : ''}`;
        // Quoted: a parenthesis in a bare edge label ends it in some Mermaid versions.
        out.push(`  ${id(`door:${door.id}`)} -->|"${text}"| ${id(`region:${region.region}`)}`);
      }
    }
    if (t.frontDoors.length === 0) {
      for (const lb of region.loadBalancers) out.push(`  ${obj} --> ${id(`lb:${region.region}:${lb.id}`)}`);
    }
  }
  for (const cluster of t.blockedClusters) {
    out.push(
      `  ${id(`blocked:${cluster}`)}[${label(`cluster ${cluster}`, 'traffic blocked: no targets')}]:::blocked`,
    );
    out.push(`  ${obj} -.-x ${id(`blocked:${cluster}`)}`);
  }
  out.push('  classDef pending stroke-dasharray: 5 5,stroke:#b58900');
  out.push('  classDef draining fill:#fdf6e3,stroke:#cb4b16,stroke-dasharray: 3 3');
  out.push('  classDef blocked fill:#fde2e1,stroke:#dc322f');
  return `${out.join('\n')}\n`;
}

function drawLoadBalancer(
  out: string[],
  id: (key: string) => string,
  region: string,
  lb: LoadBalancerNode,
): void {
  const k = (s: string) => `${region}:${lb.id}:${s}`;
  const lbId = id(`lb:${region}:${lb.id}`);
  out.push(
    `    ${lbId}[${label(`${lb.type === 'application' ? 'ALB' : 'NLB'} ${lb.name}`, lb.scheme, lb.dnsName, pendingText(lb.pending))}]${pendingClass(lb.pending)}`,
  );
  const forwardEdges = (from: string, a: ActionNode, text?: string) => {
    if (a.type !== 'forward') return;
    for (const g of a.targetGroups)
      out.push(`    ${from} -->|${text ? `${text} ` : ''}${g.weight}%| ${id(k(`tg:${g.id}`))}`);
  };
  for (const l of lb.listeners) {
    const lId = id(k(`listener:${l.id}`));
    out.push(
      `    ${lId}[${label(
        `${l.protocol}:${l.port}`,
        ...l.certificates.map(
          (c, i) =>
            `${i === 0 ? 'certificate' : '+ certificate'} ${c.replace(/^arn:aws:acm:[^:]+:\d+:certificate\//, '')}`,
        ),
        l.sslPolicy ? `SSL policy ${l.sslPolicy}` : undefined,
        pendingText(l.pending),
      )}]${pendingClass(l.pending)}`,
    );
    out.push(`    ${lbId} --> ${lId}`);
    if (l.defaultAction.type === 'forward') forwardEdges(lId, l.defaultAction, 'default');
    else {
      const d = id(k(`default:${l.id}`));
      out.push(`    ${d}[${label(`default: ${actionText(l.defaultAction)}`)}]`);
      out.push(`    ${lId} --> ${d}`);
    }
    for (const r of l.rules) {
      const rId = id(k(`rule:${r.id}`));
      out.push(
        `    ${rId}[${label(`priority ${r.priority}`, ...r.conditions.map((c) => `${c.field} ${c.values.join(' | ')}`), r.action.type === 'forward' ? undefined : actionText(r.action), pendingText(r.pending))}]${pendingClass(r.pending)}`,
      );
      out.push(`    ${lId} --> ${rId}`);
      forwardEdges(rId, r.action);
    }
  }
  for (const tg of lb.targetGroups) {
    const tgId = id(k(`tg:${tg.id}`));
    out.push(
      `    ${tgId}[${label(`target group ${tg.name}`, `${tg.protocol}:${tg.port}`, `health ${tg.healthCheck}`, pendingText(tg.pending))}]${pendingClass(tg.pending)}`,
    );
    for (const c of tg.clusters) {
      const cId = id(k(`cluster:${tg.id}:${c.name}`));
      const serving = c.targets.filter((t) => t.state !== 'draining').length;
      const draining = c.targets.length - serving;
      out.push(
        `    ${cId}[${label(`cluster ${c.name}`, `${serving} target${serving === 1 ? '' : 's'}`, draining > 0 ? `${draining} draining` : undefined, c.notReady > 0 ? `${c.notReady} not ready` : undefined, c.drained ? 'drained: weight 0' : undefined)}]${c.drained ? ':::draining' : ''}`,
      );
      out.push(`    ${tgId} -->|${c.weight}%| ${cId}`);
      for (const t of c.targets) {
        const tId = id(k(`target:${tg.id}:${t.id}:${t.port}`));
        out.push(
          `    ${tId}[${label(`${t.id}:${t.port}`, t.state === 'registered' ? undefined : t.state, t.outsideVpc ? 'outside the VPC' : undefined)}]${t.state === 'draining' ? ':::draining' : t.state === 'registering' ? ':::pending' : ''}`,
        );
        out.push(`    ${cId} --- ${tId}`);
      }
    }
  }
}
