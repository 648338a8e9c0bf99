/**
 * An IngressGroup's join record: the members its load balancer served after its last completed
 * deploy, in the order they joined, each with its UID and what it asked for
 * (model/ingress-group.ts: JoinedMember, memberFingerprint). It is how a reconcile knows, without
 * state of its own, which members were there first: the model admits them before newcomers and
 * keeps their rules' places, so a newcomer's `group.order` cannot put it ahead of them.
 *
 * Why a record and not the objects: `creationTimestamp` is not join time (an old MCI may name the
 * group today), `group.order` and finalizers are the tenant's to write, and the rules on the
 * listener are only known to AWS. The record is a ConfigMap in the deployment's own namespace
 * (record-store.ts, beside the targets records), which no tenant may write, so it survives
 * restarts and cannot be forged from a tenant's namespace. A missing or unreadable record makes
 * every member a newcomer for one deploy (LBC's order), which then writes it.
 *
 * It is written after each deploy that changed it and forgotten when the group's load balancer
 * is deleted; a dry run writes nothing.
 */
import type { KubeClient } from '../../kube/client.js';
import type { Logger } from '../../log/logger.js';
import type { JoinedMember } from './model/ingress-group.js';
import { ConfigMapRecords, type RecordKind } from './record-store.js';

export const GROUP_RECORD_OWNER_LABEL = 'multicluster.karmada.io/group-record-owner';

const isString = (v: unknown): v is string => typeof v === 'string';

function decode(raw: unknown): JoinedMember[] {
  if (!Array.isArray(raw)) throw new Error('not an IngressGroup join record');
  const seen = new Set<string>();
  return raw.map((m: unknown, i) => {
    const e = m as Partial<JoinedMember> | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      !isString(e.key) ||
      !/^[^/]+\/[^/]+$/.test(e.key) ||
      !isString(e.fingerprint) ||
      (e.uid !== undefined && !isString(e.uid)) ||
      seen.has(e.key)
    )
      throw new Error(`member ${i}: malformed`);
    seen.add(e.key);
    return { key: e.key, fingerprint: e.fingerprint, ...(e.uid !== undefined ? { uid: e.uid } : {}) };
  });
}

const GROUP_RECORDS: RecordKind<JoinedMember[]> = {
  prefix: 'mcp-group',
  ownerLabel: GROUP_RECORD_OWNER_LABEL,
  dataKey: 'members',
  encode: (members) => members,
  decode,
  unreadable:
    'unreadable IngressGroup join record; its members count as newcomers (group.order, then namespace/name) until the next deploy writes it',
};

/** `mcp-group-<hash>` ConfigMaps, one per group stack (and Region, as the targets records). */
export class KubeGroupRecords extends ConfigMapRecords<JoinedMember[]> {
  constructor(
    kube: KubeClient,
    namespace: string,
    ownerId: string,
    logger: Pick<Logger, 'warn'>,
    region?: string,
  ) {
    super(GROUP_RECORDS, kube, namespace, ownerId, logger, region);
  }
}
