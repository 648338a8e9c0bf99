/**
 * The targets record store (lib/providers/aws/deploy/target-records.ts) through client-node
 * against the Kubernetes API stand-in: what is written reads back exactly, forgetting is
 * idempotent, a second write replaces, one owner's LIST sees only its own records, and a missing
 * namespace is an error that names it (the reconcile reports it, nothing is lost).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import {
  KubeTargetRecords,
  RECORD_OWNER_LABEL,
  RECORD_STACK_ANNOTATION,
  type TargetRecord,
} from '../../lib/providers/aws/deploy/target-records.js';

const NS = 'karmada-system';
let api: KubeApiServer;
let kube: KubeClient;
beforeAll(async () => {
  api = await startKubeApiServer({ inProcess: true });
  const dir = await mkdtemp(join(tmpdir(), 'records-'));
  kube = createKubeClient(loadKubeConfig({ file: api.writeKubeconfig(join(dir, 'kubeconfig.yaml')) }), {
    transport: api.transport!,
  });
});
afterAll(async () => {
  await api.close();
});

const record = (id: string): TargetRecord => ({
  fingerprint: 'v2-abc',
  groups: {
    'k8s-a': {
      fingerprint: 'fa',
      targets: [
        { Id: id, Port: 8080 },
        { Id: '172.16.0.9', Port: 8080, AvailabilityZone: 'all' },
      ],
    },
    'k8s-b': { fingerprint: 'fb', targets: [] },
  },
});

describe('KubeTargetRecords', () => {
  it('writes a ConfigMap that reads back exactly; a second write replaces it; forget is idempotent', async () => {
    const records = new KubeTargetRecords(kube, NS, 'owner-a', new MemoryLogger());
    const stackId = 'mci/default/web';
    expect(await records.read(stackId)).toBeUndefined();
    await records.write(stackId, record('10.0.0.1'));
    expect(await records.read(stackId)).toStrictEqual(record('10.0.0.1'));

    const cm = await kube.get(Resources.ConfigMap, NS, records.nameOf(stackId));
    expect(cm?.metadata.name).toMatch(/^mcp-targets-[0-9a-f]{32}$/);
    expect(cm?.metadata.labels).toStrictEqual({ [RECORD_OWNER_LABEL]: 'owner-a' });
    expect(cm?.metadata.annotations).toStrictEqual({ [RECORD_STACK_ANNOTATION]: stackId });
    expect([RECORD_OWNER_LABEL, RECORD_STACK_ANNOTATION]).toStrictEqual([
      'multicluster.karmada.io/targets-record-owner',
      'multicluster.karmada.io/stack',
    ]);

    await records.write(stackId, record('10.0.0.2'));
    expect(await records.read(stackId)).toStrictEqual(record('10.0.0.2'));

    await records.forget(stackId);
    await records.forget(stackId);
    expect(await records.read(stackId)).toBeUndefined();
  });

  it('names differ per owner and per stack; list() returns only this owner’s, by stack ID', async () => {
    const a = new KubeTargetRecords(kube, NS, 'owner-b', new MemoryLogger());
    const other = new KubeTargetRecords(kube, NS, 'owner-c', new MemoryLogger());
    expect(a.nameOf('mci/x/y')).not.toBe(other.nameOf('mci/x/y'));
    expect(a.nameOf('mci/x/y')).not.toBe(a.nameOf('mcs/x/y'));
    await a.write('mci/x/y', record('10.0.1.1'));
    await a.write('mcs/x/y', record('10.0.1.2'));
    await other.write('mci/x/y', record('10.0.1.3'));
    expect(await a.list()).toStrictEqual(
      new Map([
        ['mci/x/y', record('10.0.1.1')],
        ['mcs/x/y', record('10.0.1.2')],
      ]),
    );
    expect([...(await other.list()).keys()]).toStrictEqual(['mci/x/y']);
  });

  it('an unparseable record is no record, in read() and list(), with a warning naming it', async () => {
    const logger = new MemoryLogger();
    const records = new KubeTargetRecords(kube, NS, 'owner-d', logger);
    await records.write('mci/d/bad', record('10.0.2.1'));
    const name = records.nameOf('mci/d/bad');
    const cm = await kube.get(Resources.ConfigMap, NS, name);
    for (const bad of [
      'not json',
      '{"fingerprint":"f","groups":{"g":{"fingerprint":"x","targets":[["10.0.0.1","80"]]}}}',
      '{"fingerprint":"f","groups":{"g":{"targets":[]}}}',
      '{"groups":{}}',
    ]) {
      await kube.update(Resources.ConfigMap, {
        ...(await kube.get<KubeObject>(Resources.ConfigMap, NS, name))!,
        data: { record: bad },
      } as never);
      expect(await records.read('mci/d/bad')).toBeUndefined();
      expect((await records.list()).has('mci/d/bad')).toBe(false);
    }
    expect(logger.lines.filter((l) => l.message.startsWith('unreadable targets record'))).toHaveLength(8);
    expect(logger.lines[0]?.fields).toMatchObject({ configMap: `${NS}/${name}` });
    // Written again over the unreadable one.
    await records.write('mci/d/bad', record('10.0.2.2'));
    expect(await records.read('mci/d/bad')).toStrictEqual(record('10.0.2.2'));
    expect(cm?.metadata.name).toBe(name);
  });

  it.each([
    ['null', 'not a targets record'],
    ['{"fingerprint":"f","groups":5}', 'not a targets record'],
    ['{"fingerprint":"f","groups":{"g":{"targets":[]}}}', 'group g: malformed'],
    [
      '{"fingerprint":"f","groups":{"g":{"fingerprint":"x","targets":[{"0":"10.0.0.1","1":80}]}}}',
      'group g: malformed target',
    ],
    [
      '{"fingerprint":"f","groups":{"g":{"fingerprint":"x","targets":[[5,80]]}}}',
      'group g: malformed target',
    ],
    [
      '{"fingerprint":"f","groups":{"g":{"fingerprint":"x","targets":[["10.0.0.1",80,7]]}}}',
      'group g: malformed target',
    ],
  ])('the record %s is refused: %s', async (bad, reason) => {
    const logger = new MemoryLogger();
    const records = new KubeTargetRecords(kube, NS, 'owner-f', logger);
    await records.write('mci/f/bad', record('10.0.4.1'));
    const name = records.nameOf('mci/f/bad');
    await kube.update(Resources.ConfigMap, {
      ...(await kube.get<KubeObject>(Resources.ConfigMap, NS, name))!,
      data: { record: bad },
    } as never);
    expect(await records.read('mci/f/bad')).toBeUndefined();
    expect(logger.lines.map((l) => l.fields)).toStrictEqual([{ configMap: `${NS}/${name}`, error: reason }]);
  });

  it('a ConfigMap under our name or label without the stack annotation is no record', async () => {
    const logger = new MemoryLogger();
    const records = new KubeTargetRecords(kube, NS, 'owner-g', logger);
    await kube.create(Resources.ConfigMap, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: records.nameOf('mci/g/x'),
        namespace: NS,
        labels: { [RECORD_OWNER_LABEL]: 'owner-g' },
      },
      data: { record: 'not json' },
    } as never);
    expect(await records.read('mci/g/x')).toBeUndefined();
    expect(await records.list()).toStrictEqual(new Map());
    // Not ours to read, so not ours to warn about.
    expect(logger.lines).toStrictEqual([]);
  });

  it('a missing namespace fails the write with an error that names it', async () => {
    const records = new KubeTargetRecords(kube, 'no-such-namespace', 'owner-e', new MemoryLogger());
    await expect(records.write('mci/a/b', record('10.0.3.1'))).rejects.toThrow(/no-such-namespace/);
    expect(await records.read('mci/a/b')).toBeUndefined();
  });
});
