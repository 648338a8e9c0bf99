/**
 * IAM: the roles serverless.yml gives the functions, read the way the Serverless Framework reads
 * them (`${file(…)}` followed) and evaluated the way IAM evaluates them (./iam-eval.ts) for one
 * account. No mutating action on Resource "*", every Resource scoped to the deployment's
 * partition, Region and account and to the resource type its actions act on (the table below is
 * this test's own reading of the Service Authorization Reference), no child create without the
 * parent's owner tag, and each function's role is the generated one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elbv2PolicyStatements } from '../../lib/providers/aws/iam.js';
import { INSTANCE_TAG, OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import {
  FUNCTION_NAMES,
  functionRolesDocument,
  roleLogicalId,
  type FunctionName,
} from '../../infra/iam/function-roles.js';
import { parseCfnYaml } from './cfn-yaml.js';
import { ACCOUNT, isAllowed, resolveCfn, type Account, type Statement } from './iam-eval.js';

const ROOT = join(import.meta.dirname, '..', '..');

const FILE_REF = /^\$\{file\(([^)]+)\)(?::([\w.]+))?\}$/;

/** Follows `${file(path):a.b}` the way the Serverless Framework does, for JSON and YAML files. */
function resolveFileRefs(value: unknown, sources: string[]): unknown {
  if (typeof value !== 'string') return value;
  const m = FILE_REF.exec(value.trim());
  if (!m) return value;
  const path = (m[1] ?? '').trim();
  sources.push(path);
  const text = readFileSync(join(ROOT, path), 'utf8');
  let doc: unknown = path.endsWith('.json') ? JSON.parse(text) : parseCfnYaml(text);
  for (const key of (m[2] ?? '').split('.').filter(Boolean)) doc = (doc as Record<string, unknown>)[key];
  return doc;
}

interface Serverless {
  provider?: { iam?: unknown };
  functions?: Record<string, { role?: unknown; iamRoleStatements?: unknown }>;
  resources?: {
    Conditions?: unknown;
    Resources?: Record<string, unknown>;
  };
}

interface Deployment {
  /** Each function's statements, resolved for `account`. */
  roles: Record<string, Statement[]>;
  /** The same, unresolved (CloudFormation intrinsics as written). */
  raw: Record<string, unknown[]>;
  sources: string[];
}

const IAM_POLICY_TYPES = ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy', 'AWS::IAM::RolePolicy'];

/** Every function's role, as serverless.yml wires it, resolved for one account. */
function deployment(text: string, account: Account = ACCOUNT): Deployment {
  const sls = parseCfnYaml(text) as Serverless;
  const sources: string[] = [];
  expect(sls.provider?.iam, 'a shared provider.iam role would be every function’s').toBeUndefined();
  const resources = Object.fromEntries(
    Object.entries(sls.resources?.Resources ?? {}).map(([k, v]) => [k, resolveFileRefs(v, sources)]),
  ) as Record<string, { Type?: string; Properties?: Record<string, any> }>;
  for (const [name, r] of Object.entries(resources)) {
    expect(IAM_POLICY_TYPES, `${name}: a policy attached beside the roles is not reviewed`).not.toContain(
      r.Type,
    );
  }
  const conditions = resolveFileRefs(sls.resources?.Conditions, sources) as Record<string, unknown>;
  const roles: Record<string, Statement[]> = {};
  const raw: Record<string, unknown[]> = {};
  for (const [fn, def] of Object.entries(sls.functions ?? {})) {
    expect(def.iamRoleStatements, `function ${fn} has statements outside its role`).toBeUndefined();
    expect(typeof def.role, `function ${fn} has no role of its own`).toBe('string');
    const role = resources[def.role as string];
    expect(role?.Type, `${fn}: ${String(def.role)} is not a role in resources`).toBe('AWS::IAM::Role');
    expect(role?.Properties?.ManagedPolicyArns, `${fn}: managed policies are not reviewed`).toBeUndefined();
    raw[fn] = (role?.Properties?.Policies ?? []).flatMap(
      (p: { PolicyDocument: { Statement: unknown[] } }) => p.PolicyDocument.Statement,
    );
    roles[fn] = resolveCfn(raw[fn], account, conditions) as Statement[];
  }
  return { roles, raw, sources };
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Anything but a read: Describe*, Get*, List* are reads in every AWS service we use. */
export function isMutating(action: string): boolean {
  const verb = action.split(':')[1] ?? '';
  return !/^(Describe|Get|List)/.test(verb);
}

/**
 * The Service Authorization Reference, as this test reads it: the resource type each action we
 * call is authorised on. ELBv2's child creates name the PARENT type.
 */
const RESOURCE_TYPE_OF: Record<string, string> = {
  // WAFv2 authorises these on the web ACL and on the resource (an ALB); ELBv2's SetWebAcl with them.
  'wafv2:AssociateWebACL': 'webacl|loadbalancer',
  'wafv2:DisassociateWebACL': 'webacl|loadbalancer',
  'wafv2:GetWebACLForResource': 'webacl|loadbalancer',
  'elasticloadbalancing:SetWebAcl': 'loadbalancer',
  'shield:CreateProtection': 'protection',
  'shield:TagResource': 'protection',
  'shield:DeleteProtection': 'protection',
  'shield:ListTagsForResource': 'protection',
  'acm:DescribeCertificate': 'certificate',
  // Global Accelerator: only the accelerator resource type supports aws:ResourceTag.
  'globalaccelerator:ListTagsForResource': 'accelerator',
  'globalaccelerator:TagResource': 'accelerator',
  'globalaccelerator:UntagResource': 'accelerator',
  'globalaccelerator:DescribeAccelerator': 'accelerator',
  'globalaccelerator:UpdateAccelerator': 'accelerator',
  'globalaccelerator:DeleteAccelerator': 'accelerator',
  'globalaccelerator:ListListeners': 'accelerator',
  'globalaccelerator:CreateListener': 'accelerator',
  'globalaccelerator:UpdateListener': 'listener',
  'globalaccelerator:DeleteListener': 'listener',
  'globalaccelerator:ListEndpointGroups': 'listener',
  'globalaccelerator:CreateEndpointGroup': 'listener',
  'globalaccelerator:UpdateEndpointGroup': 'endpointgroup',
  'globalaccelerator:DeleteEndpointGroup': 'endpointgroup',
  'iam:CreateServiceLinkedRole': 'role',
  'elasticloadbalancing:CreateLoadBalancer': 'loadbalancer',
  'elasticloadbalancing:DeleteLoadBalancer': 'loadbalancer',
  'elasticloadbalancing:ModifyLoadBalancerAttributes': 'loadbalancer',
  'elasticloadbalancing:ModifyCapacityReservation': 'loadbalancer',
  'elasticloadbalancing:SetSecurityGroups': 'loadbalancer',
  'elasticloadbalancing:SetSubnets': 'loadbalancer',
  'elasticloadbalancing:SetIpAddressType': 'loadbalancer',
  'elasticloadbalancing:CreateListener': 'loadbalancer',
  'elasticloadbalancing:ModifyListener': 'listener',
  'elasticloadbalancing:DeleteListener': 'listener',
  'elasticloadbalancing:AddListenerCertificates': 'listener',
  'elasticloadbalancing:RemoveListenerCertificates': 'listener',
  'elasticloadbalancing:ModifyListenerAttributes': 'listener',
  'elasticloadbalancing:CreateRule': 'listener',
  'elasticloadbalancing:ModifyRule': 'listener-rule',
  'elasticloadbalancing:DeleteRule': 'listener-rule',
  'elasticloadbalancing:SetRulePriorities': 'listener-rule',
  'elasticloadbalancing:CreateTargetGroup': 'targetgroup',
  'elasticloadbalancing:ModifyTargetGroup': 'targetgroup',
  'elasticloadbalancing:ModifyTargetGroupAttributes': 'targetgroup',
  'elasticloadbalancing:RegisterTargets': 'targetgroup',
  'elasticloadbalancing:DeregisterTargets': 'targetgroup',
  'elasticloadbalancing:DeleteTargetGroup': 'targetgroup',
  'elasticloadbalancing:AddTags': '*taggable',
  'elasticloadbalancing:RemoveTags': '*taggable',
  // EC2 (the managed security groups): CreateSecurityGroup is authorised on the new group and on
  // the VPC it is created in; everything else on the group.
  'ec2:CreateSecurityGroup': 'security-group|vpc',
  'ec2:AuthorizeSecurityGroupIngress': 'security-group',
  'ec2:RevokeSecurityGroupIngress': 'security-group',
  'ec2:DeleteSecurityGroup': 'security-group',
  'ec2:CreateTags': 'security-group',
  'ec2:DeleteTags': 'security-group',
  'secretsmanager:GetSecretValue': 'secret',
  'secretsmanager:PutSecretValue': 'secret',
  'ssm:GetParameter': 'parameter',
  'kms:Decrypt': 'key',
  'logs:CreateLogStream': 'log-group',
  'logs:PutLogEvents': 'log-group',
  'sqs:SendMessage': 'queue',
  'sqs:ReceiveMessage': 'queue',
  'sqs:DeleteMessage': 'queue',
  'sqs:GetQueueAttributes': 'queue',
  'sqs:ChangeMessageVisibility': 'queue',
};

/** The resource type an ARN names (ELBv2: the first path segment; SQS: a queue). */
function resourceTypeOfArn(arn: string): string {
  const [, , service, , , rest = ''] = arn.split(':');
  if (service === 'sqs') return 'queue';
  if (service === 'logs') return rest; // log-group
  // WAFv2: `regional/webacl/<name>/<id>`.
  if (service === 'wafv2') return rest.split('/')[1] ?? '';
  // Global Accelerator: `accelerator/<id>[/listener/<id>[/endpoint-group/<id>]]`.
  if (service === 'globalaccelerator') {
    const parts = rest.split('/');
    return parts.includes('endpoint-group')
      ? 'endpointgroup'
      : parts.includes('listener')
        ? 'listener'
        : 'accelerator';
  }
  return rest.split('/')[0] ?? '';
}

/**
 * GA's CreateAccelerator lists no resource type (the reference gives Resource "*" as the only
 * choice): allowed on "*" alone, and only with our owner tag in the request.
 */
function isCreateAcceleratorOnly(s: Statement): boolean {
  return (
    list(s.Action).every((a) => a === 'globalaccelerator:CreateAccelerator') &&
    conditionKeys(s).includes(`aws:RequestTag/${OWNER_TAG}`)
  );
}

/** A child create: the resource is the parent, so the request tag alone says nothing about it. */
const CHILD_CREATES = ['elasticloadbalancing:CreateListener', 'elasticloadbalancing:CreateRule'];

function conditionKeys(s: Statement): string[] {
  return Object.values(s.Condition ?? {}).flatMap((block) => Object.keys(block));
}

const serverless = readFileSync(join(ROOT, 'serverless.yml'), 'utf8');
const lb = (owner: string) =>
  `arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/k8s-${owner}/0123456789abcdef`;
const listener = (owner: string) =>
  `arn:aws:elasticloadbalancing:eu-west-1:123456789012:listener/app/k8s-${owner}/0123456789abcdef/fedcba9876543210`;
const ours = {
  [`aws:RequestTag/${OWNER_TAG}`]: 'team-a',
  [`aws:RequestTag/${INSTANCE_TAG}`]: 'instance-a',
  'aws:TagKeys': [OWNER_TAG, INSTANCE_TAG],
};
/** A resource's tags as condition keys. */
const tagged = (owner: string | undefined, instance = 'instance-a'): Record<string, string> =>
  owner === undefined
    ? {}
    : { [`aws:ResourceTag/${OWNER_TAG}`]: owner, [`aws:ResourceTag/${INSTANCE_TAG}`]: instance };

describe('IAM: every function runs under a role of its own, generated from the code', () => {
  const { roles, raw, sources } = deployment(serverless);

  it('each function names its role, generated but for the token rotator’s, and nothing else grants permissions', () => {
    // The token rotator's role is its own block of serverless.yml (test/security/functions-token.test.ts
    // holds it to the calls the rotator makes); every other role is generated.
    expect(Object.keys(roles).sort()).toEqual([...FUNCTION_NAMES, 'token'].sort());
    const generated = functionRolesDocument();
    for (const fn of FUNCTION_NAMES) {
      const role = generated.Roles[roleLogicalId(fn)];
      expect(raw[fn]).toEqual(role?.Properties.Policies.flatMap((p) => p.PolicyDocument.Statement));
    }
    expect(new Set(sources)).toEqual(new Set(['infra/iam/function-roles.json']));
  });

  it('no statement allows a mutating action on Resource "*"', () => {
    const offending = Object.entries(roles).flatMap(([fn, statements]) =>
      statements
        .filter((s) => list(s.Action).some(isMutating) && list(s.Resource).includes('*'))
        .filter((s) => !isCreateAcceleratorOnly(s))
        .map((s) => `${fn}: ${s.Sid}`),
    );
    expect(offending).toEqual([]);
  });

  it('no child create (CreateListener, CreateRule) is allowed on the request tag alone', () => {
    for (const [fn, statements] of Object.entries(roles)) {
      for (const s of statements.filter((x) => list(x.Action).some((a) => CHILD_CREATES.includes(a)))) {
        expect(conditionKeys(s), `${fn}: ${s.Sid}`).toContain(`aws:ResourceTag/${OWNER_TAG}`);
        expect(conditionKeys(s), `${fn}: ${s.Sid}`).toContain(`aws:RequestTag/${OWNER_TAG}`);
      }
    }
  });

  it('every Resource is in the deployment’s partition, Region and account, of the type its actions act on', () => {
    // Shield's, Global Accelerator's and IAM's ARNs have no Region: theirs are the account's.
    const prefix = (service: string) =>
      `arn:aws:${service}:${['shield', 'globalaccelerator', 'iam'].includes(service) ? '' : 'eu-west-1'}:123456789012:`;
    for (const [fn, statements] of Object.entries(roles)) {
      for (const s of statements) {
        const actions = list(s.Action);
        for (const r of list(s.Resource)) {
          if (r === '*') {
            expect(
              isCreateAcceleratorOnly(s) || actions.every((a) => !isMutating(a)),
              `${fn}: ${s.Sid}`,
            ).toBe(true);
            continue;
          }
          const service = r.split(':')[2] ?? '';
          expect(r.startsWith(prefix(service)), `${fn}: ${s.Sid}: ${r}`).toBe(true);
          const type = resourceTypeOfArn(r);
          for (const a of actions) {
            const expected = RESOURCE_TYPE_OF[a];
            expect(expected, `${a}: not in this test's reading of the reference`).toBeDefined();
            if (expected === '*taggable')
              expect(['loadbalancer', 'listener', 'listener-rule', 'targetgroup']).toContain(type);
            else expect(expected?.split('|'), `${fn}: ${s.Sid}: ${a} on ${r}`).toContain(type);
          }
        }
      }
    }
  });

  it('the generated ELBv2 statements pass the same rules', () => {
    const statements = resolveCfn(elbv2PolicyStatements('team-a'), ACCOUNT) as Statement[];
    expect(
      statements.filter(
        (s) =>
          list(s.Action).some(isMutating) && list(s.Resource).includes('*') && !isCreateAcceleratorOnly(s),
      ),
    ).toEqual([]);
    for (const s of statements.filter((x) => list(x.Action).some((a) => CHILD_CREATES.includes(a))))
      expect(conditionKeys(s)).toEqual(expect.arrayContaining([`aws:ResourceTag/${OWNER_TAG}`]));
  });
});

describe('IAM: child creates require the parent’s owner tag', () => {
  const { roles } = deployment(serverless);
  const reconcile = roles.sqs!;

  it('CreateListener on another owner’s load balancer is denied, even with our tag in the request', () => {
    const request = (owner: string) => ({
      action: 'elasticloadbalancing:CreateListener',
      resource: lb(owner),
      context: { ...ours, ...tagged(owner === 'none' ? undefined : owner) },
    });
    expect(isAllowed(reconcile, request('team-a'))).toBe(true);
    expect(isAllowed(reconcile, request('team-b'))).toBe(false);
    expect(isAllowed(reconcile, request('none'))).toBe(false);
  });

  it('CreateRule on another application’s listener is denied, even with our tag in the request', () => {
    const request = (owner: string | undefined) => ({
      action: 'elasticloadbalancing:CreateRule',
      resource: listener(owner ?? 'other'),
      context: { ...ours, ...tagged(owner) },
    });
    expect(isAllowed(reconcile, request('team-a'))).toBe(true);
    expect(isAllowed(reconcile, request('team-b'))).toBe(false);
    expect(isAllowed(reconcile, request(undefined))).toBe(false);
  });

  it('creates need our tag in the request; an owned resource cannot be handed over or disowned', () => {
    const tg = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/k8s-x/0123456789abcdef';
    expect(
      isAllowed(reconcile, { action: 'elasticloadbalancing:CreateTargetGroup', resource: tg, context: ours }),
    ).toBe(true);
    expect(isAllowed(reconcile, { action: 'elasticloadbalancing:CreateTargetGroup', resource: tg })).toBe(
      false,
    );
    const owned = tagged('team-a');
    const addTags = (tags: Record<string, string>) => ({
      action: 'elasticloadbalancing:AddTags',
      resource: tg,
      context: {
        ...owned,
        'aws:TagKeys': Object.keys(tags),
        ...Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:RequestTag/${k}`, v])),
      },
    });
    expect(isAllowed(reconcile, addTags({ team: 'x' }))).toBe(true);
    expect(isAllowed(reconcile, addTags({ [OWNER_TAG]: 'team-b' }))).toBe(false);
    const removeTags = (keys: string[]) => ({
      action: 'elasticloadbalancing:RemoveTags',
      resource: tg,
      context: { ...owned, 'aws:TagKeys': keys },
    });
    expect(isAllowed(reconcile, removeTags(['team']))).toBe(true);
    expect(isAllowed(reconcile, removeTags(['team', OWNER_TAG]))).toBe(false);
    expect(
      isAllowed(reconcile, {
        action: 'elasticloadbalancing:DeleteTargetGroup',
        resource: tg,
        context: tagged('team-b'),
      }),
    ).toBe(false);
  });

  it('every mutation also needs the Karmada instance tag: the same owner ID in another Karmada is denied', () => {
    const tg = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/k8s-x/0123456789abcdef';
    const other = tagged('team-a', 'instance-b');
    for (const action of ['DeleteTargetGroup', 'RegisterTargets', 'ModifyTargetGroup']) {
      const request = (context: Record<string, string>) => ({
        action: `elasticloadbalancing:${action}`,
        resource: tg,
        context,
      });
      expect(isAllowed(reconcile, request(tagged('team-a'))), action).toBe(true);
      expect(isAllowed(reconcile, request(other)), action).toBe(false);
    }
    expect(
      isAllowed(reconcile, {
        action: 'elasticloadbalancing:CreateListener',
        resource: lb('team-a'),
        context: { ...ours, ...other },
      }),
    ).toBe(false);
    const { [`aws:RequestTag/${INSTANCE_TAG}`]: _dropped, ...withoutInstance } = ours;
    expect(
      isAllowed(reconcile, {
        action: 'elasticloadbalancing:CreateTargetGroup',
        resource: tg,
        context: { ...withoutInstance, 'aws:TagKeys': [OWNER_TAG] },
      }),
    ).toBe(false);
    // Nor can the instance tag be removed or changed.
    expect(
      isAllowed(reconcile, {
        action: 'elasticloadbalancing:RemoveTags',
        resource: tg,
        context: { ...tagged('team-a'), 'aws:TagKeys': [INSTANCE_TAG] },
      }),
    ).toBe(false);
  });
});

describe('IAM: the kubeconfig grant covers exactly the configured secret or parameter', () => {
  const secret = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}`;
  const read = (statements: Statement[], arn: string) =>
    isAllowed(statements, { action: 'secretsmanager:GetSecretValue', resource: arn });

  it('the Secrets Manager grant is scoped to the exact secret (`<name>-??????`)', () => {
    const { roles } = deployment(serverless);
    for (const fn of FUNCTION_NAMES) {
      const r = roles[fn]!;
      expect(read(r, secret('multicluster-cloud-provider/kubeconfig-AbCdEf')), fn).toBe(true);
      // A prefix grant would also cover these.
      expect(read(r, secret('multicluster-cloud-provider/kubeconfig-admin-AbCdEf')), fn).toBe(false);
      expect(read(r, secret('multicluster-cloud-provider/kubeconfigs-AbCdEf')), fn).toBe(false);
      expect(
        isAllowed(r, {
          action: 'ssm:GetParameter',
          resource: 'arn:aws:ssm:eu-west-1:123456789012:parameter/x',
        }),
      ).toBe(false);
    }
  });

  it('a secret given by its ARN is granted as exactly that ARN', () => {
    const arn = secret('team/karmada-Xy12Ab');
    const { roles } = deployment(serverless, {
      ...ACCOUNT,
      params: { ...ACCOUNT.params, kubeconfigSecretId: arn },
    });
    expect(read(roles.sweep!, arn)).toBe(true);
    expect(read(roles.sweep!, secret('team/karmada-Xy12Ab-other'))).toBe(false);
  });

  it('the SSM path grants ssm:GetParameter on the parameter and kms:Decrypt only through SSM for it', () => {
    const { roles } = deployment(serverless, {
      ...ACCOUNT,
      params: { ...ACCOUNT.params, kubeconfigSecretId: '', kubeconfigParameter: '/karmada/kubeconfig' },
    });
    const r = roles.resync!;
    const parameter = 'arn:aws:ssm:eu-west-1:123456789012:parameter/karmada/kubeconfig';
    expect(isAllowed(r, { action: 'ssm:GetParameter', resource: parameter })).toBe(true);
    expect(isAllowed(r, { action: 'ssm:GetParameter', resource: `${parameter}-admin` })).toBe(false);
    expect(read(r, secret('multicluster-cloud-provider/kubeconfig-AbCdEf'))).toBe(false);
    const key = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const decrypt = (via: string, param: string) =>
      isAllowed(r, {
        action: 'kms:Decrypt',
        resource: key,
        context: { 'kms:ViaService': via, 'kms:EncryptionContext:PARAMETER_ARN': param },
      });
    expect(decrypt('ssm.eu-west-1.amazonaws.com', parameter)).toBe(true);
    expect(decrypt('ssm.eu-west-1.amazonaws.com', `${parameter}-admin`)).toBe(false);
    expect(decrypt('s3.eu-west-1.amazonaws.com', parameter)).toBe(false);
  });
});

describe('IAM: each role holds only what its function does', () => {
  const { roles } = deployment(serverless);
  const actions = (fn: FunctionName) => new Set(roles[fn]!.flatMap((s) => list(s.Action)));
  const elbv2 = (fn: FunctionName) => [...actions(fn)].filter((a) => a.startsWith('elasticloadbalancing:'));

  it('resync only reads load balancers and their tags (the fingerprint pass); only it may send to the queue', () => {
    expect(elbv2('resync').sort()).toEqual([
      'elasticloadbalancing:DescribeLoadBalancers',
      'elasticloadbalancing:DescribeTags',
    ]);
    for (const fn of FUNCTION_NAMES) expect(actions(fn).has('sqs:SendMessage'), fn).toBe(fn === 'resync');
  });

  it('the sweep lists and deletes, never creates or changes', () => {
    expect(elbv2('sweep').filter((a) => !/:(Describe|Delete)/.test(a))).toEqual([]);
    expect(elbv2('sweep').length).toBeGreaterThan(0);
  });

  it('only sqs consumes the queue', () => {
    for (const fn of FUNCTION_NAMES) expect(actions(fn).has('sqs:ReceiveMessage'), fn).toBe(fn === 'sqs');
  });
});

describe('IAM: the tenant policy’s scheme, subnets and security groups are pinned in IAM too', () => {
  const lbArn = lb('team-a');
  const create = (context: Record<string, string | string[]>) => ({
    action: 'elasticloadbalancing:CreateLoadBalancer',
    resource: lbArn,
    context: { ...ours, ...context },
  });
  const pinnedAccount = {
    ...ACCOUNT,
    params: {
      ...ACCOUNT.params,
      awsAllowedSchemes: 'internal',
      awsAllowedSubnets: 'subnet-aaa,subnet-bbb',
      awsAllowedSecurityGroups: 'sg-111',
    },
  };

  it('with the parameters set, CreateLoadBalancer, SetSubnets and SetSecurityGroups outside them are denied', () => {
    const r = deployment(serverless, pinnedAccount).roles.sqs!;
    const ok = { 'elasticloadbalancing:Scheme': 'internal', 'elasticloadbalancing:Subnet': ['subnet-aaa'] };
    expect(isAllowed(r, create({ ...ok, 'elasticloadbalancing:SecurityGroup': ['sg-111'] }))).toBe(true);
    expect(isAllowed(r, create({ ...ok, 'elasticloadbalancing:Scheme': 'internet-facing' }))).toBe(false);
    expect(isAllowed(r, create({ ...ok, 'elasticloadbalancing:Subnet': ['subnet-aaa', 'subnet-pub'] }))).toBe(
      false,
    );
    expect(isAllowed(r, create({ ...ok, 'elasticloadbalancing:SecurityGroup': ['sg-999'] }))).toBe(false);
    const change = (action: string, key: string, values: string[]) =>
      isAllowed(r, {
        action: `elasticloadbalancing:${action}`,
        resource: lbArn,
        context: { ...tagged('team-a'), [key]: values },
      });
    expect(change('SetSubnets', 'elasticloadbalancing:Subnet', ['subnet-bbb'])).toBe(true);
    expect(change('SetSubnets', 'elasticloadbalancing:Subnet', ['subnet-pub'])).toBe(false);
    expect(change('SetSecurityGroups', 'elasticloadbalancing:SecurityGroup', ['sg-999'])).toBe(false);
  });

  it('left empty, they pin nothing', () => {
    const r = deployment(serverless).roles.sqs!;
    expect(
      isAllowed(
        r,
        create({
          'elasticloadbalancing:Scheme': 'internet-facing',
          'elasticloadbalancing:Subnet': ['subnet-pub'],
          'elasticloadbalancing:SecurityGroup': ['sg-999'],
        }),
      ),
    ).toBe(true);
  });
});
