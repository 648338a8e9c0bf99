/**
 * The plan's placeholders: what a planned call holds where its value is known only while the plan
 * is applied (the ARN or DNS name of a resource the plan creates, an OIDC client secret).
 *
 * A placeholder is an object, never a string, so no text a tenant writes (an annotation, a host, a
 * fixed response) can ever become one; and the apply step replaces a placeholder only at the
 * fields its kind may stand in (REF_FIELDS), refusing one anywhere else. Plans print as before:
 * JSON, logs and `npm run plan` show `{{arn:<resource id>}}`, `{{dns:<resource id>}}` and
 * `{{secret:<namespace>/<name>}}`.
 */
import { inspect } from 'node:util';

abstract class Placeholder {
  abstract readonly kind: 'arn' | 'dns' | 'secret';
  protected abstract get key(): string;

  toString(): string {
    return `{{${this.kind}:${this.key}}}`;
  }

  toJSON(): string {
    return this.toString();
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** The ARN (or, for a security group, the ID) of a resource this plan creates, by resource ID. */
export class ArnRef extends Placeholder {
  readonly kind = 'arn';
  constructor(readonly resourceId: string) {
    super();
    Object.freeze(this);
  }
  protected get key(): string {
    return this.resourceId;
  }
}

/** The DNS name of a load balancer this plan creates (recorded in its tags). */
export class DnsRef extends Placeholder {
  readonly kind = 'dns';
  constructor(readonly resourceId: string) {
    super();
    Object.freeze(this);
  }
  protected get key(): string {
    return this.resourceId;
  }
}

/**
 * The client secret of an OIDC action, by its Kubernetes Secret. The namespace is the one of the
 * object whose annotations name the Secret (model/annotations/auth.ts); the value is taken only
 * from what was read in that namespace (oidc-secrets.ts), so one IngressGroup member's action can
 * never be given another namespace's secret.
 */
export class SecretRef extends Placeholder {
  readonly kind = 'secret';
  constructor(
    readonly namespace: string,
    readonly name: string,
  ) {
    super();
    Object.freeze(this);
  }
  protected get key(): string {
    return `${this.namespace}/${this.name}`;
  }
}

export type PlanRef = ArnRef | DnsRef | SecretRef;

/** An ARN a plan knows, or the placeholder of one it creates. */
export type Arn = string | ArnRef;

export function arnRef(resourceId: string): ArnRef {
  return new ArnRef(resourceId);
}

export function dnsRef(resourceId: string): DnsRef {
  return new DnsRef(resourceId);
}

/**
 * The placeholder of a model ClientSecretRef's Secret (`<namespace>/<name>`, types.ts): plans
 * are printed and logged, so they hold this; only applyPlan puts the value in, as it sends.
 */
export function secretRef(secret: string): SecretRef {
  const slash = secret.indexOf('/');
  if (slash <= 0) throw new Error(`client secret reference ${JSON.stringify(secret)} names no namespace`);
  return new SecretRef(secret.slice(0, slash), secret.slice(slash + 1));
}

/**
 * Where each placeholder may stand: the field (an array's elements stand at the array's field);
 * a tag's value (`Tags[].Value`) also takes an ARN (a security group's ID) or a DNS name.
 */
interface RefFields {
  TargetGroupArn: ArnRef;
  LoadBalancerArn: ArnRef;
  ListenerArn: ArnRef;
  ResourceArn: ArnRef;
  ResourceArns: ArnRef;
  SecurityGroups: ArnRef;
  GroupId: ArnRef;
  /** A target's ID (the frontend NLB's target is the ALB it creates). */
  Id: ArnRef;
  AcceleratorArn: ArnRef;
  ClientSecret: SecretRef;
}

type PlannedTag<T> = T extends { Key?: string; Value?: string }
  ? Omit<T, 'Value'> & { Value?: T['Value'] | ArnRef | DnsRef }
  : Planned<T>;
type WithRef<V, R> = V extends string
  ? V | R
  : V extends ReadonlyArray<infer E>
    ? Array<E extends string ? E | R : Planned<E>>
    : Planned<V>;

/**
 * An SDK input as a plan holds it: a placeholder is allowed at the fields of RefFields (and at a
 * tag's value), nowhere else. `Planned<T>` accepts every plain T.
 */
export type Planned<T> = T extends string | number | boolean | bigint | symbol | null | undefined | Date
  ? T
  : T extends ReadonlyArray<infer E>
    ? Array<Planned<E>>
    : T extends object
      ? {
          [K in keyof T]: K extends 'Tags'
            ? T[K] extends ReadonlyArray<infer E> | undefined
              ? Array<PlannedTag<E>> | Extract<T[K], undefined>
              : Planned<T[K]>
            : K extends keyof RefFields
              ? WithRef<T[K], RefFields[K]>
              : Planned<T[K]>;
        }
      : T;

/** What the apply step knows of the values placeholders stand for. */
export interface RefValues {
  /** Resource ID → ARN (or security group ID) of what the plan created so far. */
  arns: ReadonlyMap<string, string>;
  /** Resource ID → DNS name of the load balancers the plan created so far. */
  dnsNames?: ReadonlyMap<string, string>;
  /** The OIDC client secrets, by namespace and name (oidc-secrets.ts ClientSecrets). */
  secrets?: SecretValues;
}

/** Client secrets by the namespace and name of their Secret; never printed (oidc-secrets.ts). */
export interface SecretValues {
  get(namespace: string, name: string): string | undefined;
}

function allowedAt(ref: PlanRef, field: string | undefined, parent: string | undefined): boolean {
  if (field === 'Value' && parent === 'Tags') return ref.kind === 'arn' || ref.kind === 'dns';
  // RefFields for the apply step. Built per call, not at module level: mutation testing can only
  // switch what runs inside a test (test/mutation/README.md).
  const fields: { readonly [F in keyof RefFields]: RefFields[F]['kind'] } = {
    TargetGroupArn: 'arn',
    LoadBalancerArn: 'arn',
    ListenerArn: 'arn',
    ResourceArn: 'arn',
    ResourceArns: 'arn',
    SecurityGroups: 'arn',
    GroupId: 'arn',
    Id: 'arn',
    AcceleratorArn: 'arn',
    ClientSecret: 'secret',
  };
  return field !== undefined && (fields as Record<string, string | undefined>)[field] === ref.kind;
}

function valueOf(ref: PlanRef, values: RefValues): string {
  if (ref instanceof SecretRef) {
    const secret = values.secrets?.get(ref.namespace, ref.name);
    if (secret === undefined)
      throw new Error(
        `plan needs the client secret of Secret ${ref.namespace}/${ref.name}, which was not read in namespace ${ref.namespace}`,
      );
    return secret;
  }
  const resolved = (ref instanceof DnsRef ? values.dnsNames : values.arns)?.get(ref.resourceId);
  if (resolved === undefined) throw new Error(`plan refers to ${ref.resourceId} before it exists`);
  return resolved;
}

/**
 * The input with every placeholder replaced by its value. Strings are never looked at, whatever
 * they hold; a placeholder at a field its kind may not stand in, or one whose value is unknown,
 * is an error naming the placeholder (never a value).
 */
export function resolvePlanned<T>(input: Planned<T>, values: RefValues): T {
  const walk = (v: unknown, field: string | undefined, parent: string | undefined): unknown => {
    if (v instanceof Placeholder) {
      const ref = v as PlanRef;
      if (!allowedAt(ref, field, parent))
        throw new Error(
          `plan holds ${ref.toString()} at ${field ?? 'the top'}, where no placeholder may stand`,
        );
      return valueOf(ref, values);
    }
    // An array's elements stand at the array's field.
    if (Array.isArray(v)) return v.map((x) => walk(x, field, parent));
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x, k, field)]),
      );
    }
    return v;
  };
  return walk(input, undefined, undefined) as T;
}
