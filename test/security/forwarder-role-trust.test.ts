/**
 * ForwarderRole is assumed only by the forwarder's ServiceAccount in its cluster. EKS Pod Identity
 * assumes a role with the session tags `eks-cluster-arn`, `eks-cluster-name`,
 * `kubernetes-namespace`, `kubernetes-service-account` (and the pod's name and UID), which the
 * trust policy reads as `aws:RequestTag/<key>`. A trust policy on `aws:SourceAccount` alone lets
 * any Pod Identity association of the account, in any cluster and namespace, send to the queue.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCfnYaml } from './cfn-yaml.js';
import { ACCOUNT, resolveCfn, trustAllows, type TrustStatement } from './iam-eval.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Role {
  Properties: { AssumeRolePolicyDocument: { Statement: TrustStatement[] } };
}
const sls = parseCfnYaml(readFileSync(join(ROOT, 'serverless.yml'), 'utf8')) as {
  resources: { Resources: { ForwarderRole: Role } };
};
const trust = (resolveCfn(sls.resources.Resources.ForwarderRole, ACCOUNT) as Role).Properties
  .AssumeRolePolicyDocument.Statement;

const CLUSTER = ACCOUNT.params.forwarderClusterArn!;
/** The session tags EKS Pod Identity sends for a pod of `namespace`/`serviceAccount` in `cluster`. */
const podIdentity = (cluster: string, namespace: string, serviceAccount: string) => ({
  'aws:SourceAccount': ACCOUNT.accountId,
  'aws:RequestTag/eks-cluster-arn': cluster,
  'aws:RequestTag/eks-cluster-name': cluster.split('/').pop()!,
  'aws:RequestTag/kubernetes-namespace': namespace,
  'aws:RequestTag/kubernetes-service-account': serviceAccount,
  'aws:RequestTag/kubernetes-pod-name': 'pod-0',
  'aws:RequestTag/kubernetes-pod-uid': '0e6f7b1c-0000-4000-8000-000000000000',
});
const assume = (context: Record<string, string>) =>
  ['sts:AssumeRole', 'sts:TagSession'].every((action) =>
    trustAllows(trust, { service: 'pods.eks.amazonaws.com', action, context }),
  );

describe('ForwarderRole trusts only the forwarder’s ServiceAccount, namespace and cluster', () => {
  it('the forwarder’s pod may assume it', () => {
    expect(assume(podIdentity(CLUSTER, 'multicluster-forwarder', 'multicluster-forwarder'))).toBe(true);
  });

  it('another namespace, ServiceAccount or cluster of the account may not', () => {
    expect(assume(podIdentity(CLUSTER, 'default', 'multicluster-forwarder'))).toBe(false);
    expect(assume(podIdentity(CLUSTER, 'multicluster-forwarder', 'default'))).toBe(false);
    const other = 'arn:aws:eks:eu-west-1:123456789012:cluster/another-cluster';
    expect(assume(podIdentity(other, 'multicluster-forwarder', 'multicluster-forwarder'))).toBe(false);
    // A same-named cluster in another Region is another cluster.
    const twin = CLUSTER.replace(':eu-west-1:', ':us-east-1:');
    expect(assume(podIdentity(twin, 'multicluster-forwarder', 'multicluster-forwarder'))).toBe(false);
  });

  it('an association with session tags disabled (no tags to check) may not', () => {
    expect(assume({ 'aws:SourceAccount': ACCOUNT.accountId })).toBe(false);
  });

  it('another account may not, even with the same tags', () => {
    expect(
      assume({
        ...podIdentity(CLUSTER, 'multicluster-forwarder', 'multicluster-forwarder'),
        'aws:SourceAccount': '210987654321',
      }),
    ).toBe(false);
  });
});
