import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import type { ChangeNotification, ChangeType } from '../../lib/notification/types.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { Resources } from '../../lib/kube/resources.js';

export function svc(
  name: string,
  rv: number,
  namespace = 'default',
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}`, resourceVersion: String(rv) },
    ...extra,
  };
}

export function note(
  change: ChangeType,
  name: string,
  rv: number,
  old?: number,
  at = new Date('2026-01-01T00:00:00Z'),
  type: ResourceType = Resources.Service,
): ChangeNotification {
  return makeNotification(change, type, svc(name, rv), old === undefined ? undefined : svc(name, old), at);
}
