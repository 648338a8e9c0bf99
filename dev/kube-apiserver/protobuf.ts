/**
 * Kubernetes' protobuf request bodies, for the kinds kubectl's generators send them for
 * (`kubectl create namespace`, `kubectl create secret generic|tls|docker-registry`): the `k8s\0` envelope around a
 * `runtime.Unknown` (TypeMeta + raw bytes), and the raw object decoded with the field numbers of
 * k8s.io/api core/v1 and k8s.io/apimachinery meta/v1 `generated.proto`. Answers stay JSON (kubectl
 * accepts both). Other kinds are refused with 415, naming what is accepted.
 */
import { ApiError, badRequest, unsupportedMediaType } from './errors.js';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Obj = Record<string, unknown>;

/** One message's fields: number → [json name, how to decode]. */
type Schema = Record<number, [string, Field]>;
type Field =
  | 'string'
  | 'bytes'
  | 'bool'
  | 'int'
  | 'time'
  | { message: Schema; repeated?: boolean }
  | { repeatedString: true }
  | { map: 'string' | 'bytes' };

const TIME: Schema = { 1: ['seconds', 'int'], 2: ['nanos', 'int'] };
const OWNER_REFERENCE: Schema = {
  1: ['kind', 'string'],
  3: ['name', 'string'],
  4: ['uid', 'string'],
  5: ['apiVersion', 'string'],
  6: ['controller', 'bool'],
  7: ['blockOwnerDeletion', 'bool'],
};
const OBJECT_META: Schema = {
  1: ['name', 'string'],
  2: ['generateName', 'string'],
  3: ['namespace', 'string'],
  5: ['uid', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['generation', 'int'],
  8: ['creationTimestamp', 'time'],
  11: ['labels', { map: 'string' }],
  12: ['annotations', { map: 'string' }],
  13: ['ownerReferences', { message: OWNER_REFERENCE, repeated: true }],
  14: ['finalizers', { repeatedString: true }],
};
const META: [string, Field] = ['metadata', { message: OBJECT_META }];

const KINDS: Record<string, Schema> = {
  'v1/Namespace': {
    1: META,
    2: ['spec', { message: { 1: ['finalizers', { repeatedString: true }] } }],
    3: ['status', { message: { 1: ['phase', 'string'] } }],
  },
  'v1/Secret': {
    1: META,
    2: ['data', { map: 'bytes' }],
    3: ['type', 'string'],
    4: ['stringData', { map: 'string' }],
    5: ['immutable', 'bool'],
  },
};

export const PROTOBUF_KINDS = Object.keys(KINDS).map((k) => k.slice(k.indexOf('/') + 1));

class Reader {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw badRequest('protobuf: truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }
  bytes(): Buffer {
    const len = Number(this.varint());
    if (this.pos + len > this.buf.length) throw badRequest('protobuf: truncated field');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 2) this.bytes();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 5) this.pos += 4;
    else throw badRequest(`protobuf: unsupported wire type ${wireType}`);
  }
}

function rfc3339(time: Obj): string {
  return new Date(Number(time.seconds ?? 0) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

function decodeMessage(buf: Buffer, schema: Schema): Obj {
  const out: Obj = {};
  const r = new Reader(buf);
  while (!r.done) {
    const tag = Number(r.varint());
    const [name, field] = schema[tag >>> 3] ?? [];
    const wireType = tag & 7;
    if (!name || !field) {
      r.skip(wireType);
      continue;
    }
    // Go encodes every non-pointer field, empty or not; JSON leaves empty ones out (omitempty).
    if (field === 'int') out[name] = Number(r.varint());
    else if (field === 'bool') out[name] = r.varint() !== 0n;
    else if (field === 'string') out[name] = r.bytes().toString('utf8');
    else if (field === 'bytes') out[name] = r.bytes().toString('base64');
    else if (field === 'time') out[name] = rfc3339(decodeMessage(r.bytes(), TIME));
    else if ('repeatedString' in field) ((out[name] ??= []) as string[]).push(r.bytes().toString('utf8'));
    else if ('map' in field) {
      const entry = decodeMessage(r.bytes(), { 1: ['key', 'string'], 2: ['value', field.map] });
      ((out[name] ??= {}) as Obj)[String(entry.key ?? '')] = entry.value ?? '';
    } else if (field.repeated) ((out[name] ??= []) as Obj[]).push(decodeMessage(r.bytes(), field.message));
    else out[name] = decodeMessage(r.bytes(), field.message);
    if (out[name] === '' || out[name] === 0 || out[name] === false) delete out[name];
  }
  return out;
}

/** The JSON object a protobuf request body stands for. */
export function decodeProtobuf(body: Buffer, contentType: string): Obj {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw badRequest('protobuf: the body does not start with the k8s envelope');
  }
  let unknown: Obj;
  try {
    unknown = decodeMessage(body.subarray(MAGIC.length), {
      1: ['typeMeta', { message: { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] } }],
      2: ['raw', 'bytes'],
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest(`protobuf: ${String(err)}`);
  }
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const schema = KINDS[`${typeMeta.apiVersion ?? ''}/${typeMeta.kind ?? ''}`];
  if (!schema) {
    throw unsupportedMediaType(
      `${contentType} (${typeMeta.apiVersion ?? '?'} ${typeMeta.kind ?? '?'})`,
      `application/json, application/yaml, ${PROTOBUF} for ${PROTOBUF_KINDS.join(', ')}`,
    );
  }
  const raw = Buffer.from(String(unknown.raw ?? ''), 'base64');
  return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...decodeMessage(raw, schema) };
}
