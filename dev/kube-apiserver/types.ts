/** Shapes shared by the modules of the Kubernetes API stand-in. */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A stored object: always carries apiVersion, kind and metadata once it is in the store. */
export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata: KMeta;
  [field: string]: unknown;
}

export interface KMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  [field: string]: unknown;
}

/** An OpenAPI v3 schema node as found in a CRD's openAPIV3Schema. */
export interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  enum?: unknown[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  [keyword: string]: unknown;
}

/** What a caller gives to register a resource type. */
export interface ResourceTypeInput {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular?: string;
  namespaced: boolean;
  statusSubresource?: boolean;
  /** An autoscaling/v1 `/scale` subresource over spec.replicas. */
  scaleSubresource?: boolean;
  shortNames?: string[];
  categories?: string[];
  /** openAPIV3Schema of a CRD version; undefined means "accept anything" (built-in kinds). */
  schema?: SchemaNode;
  /** CRDs only support metadata.name/metadata.namespace field selectors. */
  crd?: boolean;
}

export interface ResourceDef extends Required<Omit<ResourceTypeInput, 'schema'>> {
  schema?: SchemaNode;
  listKind: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoredEvent {
  rv: number;
  type: WatchEventType;
  /** `group/plural` */
  resource: string;
  object: KObject;
  /** The object before a MODIFIED event, so that selector-filtered watches can translate it. */
  previous?: KObject;
}

export const apiVersionOf = (def: Pick<ResourceDef, 'group' | 'version'>): string =>
  def.group ? `${def.group}/${def.version}` : def.version;

export const resourceKeyOf = (def: Pick<ResourceDef, 'group' | 'plural'>): string =>
  `${def.group}/${def.plural}`;

/** `multiclusteringresses.networking.karmada.io`, or `services` for the core group. */
export const qualifiedResource = (def: Pick<ResourceDef, 'group' | 'plural'>): string =>
  def.group ? `${def.plural}.${def.group}` : def.plural;

/** `MultiClusterIngress.networking.karmada.io`, or `Service` for the core group. */
export const qualifiedKind = (def: Pick<ResourceDef, 'group' | 'kind'>): string =>
  def.group ? `${def.kind}.${def.group}` : def.kind;

export const objectKeyOf = (meta: KMeta): string =>
  meta.namespace ? `${meta.namespace}/${meta.name ?? ''}` : (meta.name ?? '');
