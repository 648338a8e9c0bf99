import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import {
  assertValidMultiClusterIngress,
  formatIssues,
  validateMultiClusterIngress,
} from '../../lib/karmada/validate.js';
import {
  assertValidMultiClusterService,
  validateMultiClusterService,
} from '../../lib/karmada/validate-mcs.js';
import { CRD_VALIDATORS, generateValidators, type CrdValidatorModule } from '../../scripts/gen-validators.js';

/** The upstream sample MultiClusterIngress (karmada docs, minimal-ingress). */
const sampleMci = () => ({
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterIngress',
  metadata: {
    name: 'minimal-ingress',
    annotations: { 'nginx.ingress.kubernetes.io/rewrite-target': '/' },
  },
  spec: {
    rules: [
      {
        http: {
          paths: [
            {
              path: '/testpath',
              pathType: 'Prefix',
              backend: { service: { name: 'serve', port: { number: 80 } } },
            },
          ],
        },
      },
    ],
  },
});

/** The upstream sample MultiClusterService. */
const sampleMcs = () => ({
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata: { name: 'serve' },
  spec: { types: ['LoadBalancer'], ports: [{ port: 80 }] },
});

type Mci = ReturnType<typeof sampleMci> & Record<string, any>;
type Mcs = ReturnType<typeof sampleMcs> & Record<string, any>;

const P0 = 'spec.rules[0].http.paths[0]';
/** The first path of the sample, for mutations. */
const path0 = (o: Mci): any => o.spec.rules[0]!.http.paths[0]!;

function mci(mutate: (o: Mci) => void): Mci {
  const o = sampleMci() as Mci;
  mutate(o);
  return o;
}

function mcs(mutate: (o: Mcs) => void): Mcs {
  const o = sampleMcs() as Mcs;
  mutate(o);
  return o;
}

describe('valid objects', () => {
  it('accepts the upstream sample MultiClusterIngress', () => {
    expect(validateMultiClusterIngress(sampleMci())).toEqual([]);
    const obj: unknown = sampleMci();
    assertValidMultiClusterIngress(obj);
    expect(obj.spec?.rules?.[0]?.http?.paths[0]?.pathType).toBe('Prefix');
  });

  it('accepts the upstream sample MultiClusterService', () => {
    expect(validateMultiClusterService(sampleMcs())).toEqual([]);
    const obj: unknown = sampleMcs();
    assertValidMultiClusterService(obj);
    expect(obj.spec.types).toEqual(['LoadBalancer']);
  });

  it('accepts a fuller MultiClusterIngress (default backend, TLS, wildcard host, resource backend, status)', () => {
    const obj = mci((o) => {
      o.spec = {
        ingressClassName: 'karmada.io-aws',
        defaultBackend: { service: { name: 'fallback', port: { name: 'http' } } },
        tls: [{ hosts: ['*.example.com', 'a.example.com'], secretName: 'example-tls' }],
        rules: [
          {
            host: '*.example.com',
            http: {
              paths: [
                {
                  pathType: 'ImplementationSpecific',
                  backend: { service: { name: 'a', port: { number: 8080 } } },
                },
                {
                  path: '/x',
                  pathType: 'Exact',
                  backend: { resource: { apiGroup: 'k8s.example.com', kind: 'Bucket', name: 'b' } },
                },
              ],
            },
          },
        ],
      } as any;
      o.status = {
        loadBalancer: {
          ingress: [
            { hostname: 'lb.example.com', ports: [{ port: 443, protocol: 'TCP', error: 'Pending' }] },
          ],
        },
        serviceLocations: [{ name: 'a', clusters: ['member1'] }],
        trafficBlockClusters: [],
      };
    });
    expect(validateMultiClusterIngress(obj)).toEqual([]);
  });

  it('accepts a fuller MultiClusterService (CrossCluster, named ports, clusters, conditions)', () => {
    const obj = mcs((o) => {
      o.spec = {
        types: ['CrossCluster', 'CrossCluster'],
        ports: [
          { name: 'http', port: 80 },
          { name: 'https', port: 443 },
        ],
        providerClusters: [{ name: 'member1' }],
        consumerClusters: [{ name: 'member2' }],
      } as any;
      o.status = {
        conditions: [
          {
            type: 'ServiceApplied',
            status: 'True',
            reason: 'ServiceAppliedSucceed',
            message: '',
            lastTransitionTime: '2026-01-02T03:04:05Z',
            observedGeneration: 2,
          },
        ],
      };
    });
    expect(validateMultiClusterService(obj)).toEqual([]);
  });

  it('does not reject unknown fields (the API server prunes them; newer versions may add some)', () => {
    expect(validateMultiClusterIngress(mci((o) => ((o.spec as any).futureField = { x: 1 })))).toEqual([]);
    expect(validateMultiClusterService(mcs((o) => ((o.spec as any).futureField = 1)))).toEqual([]);
  });
});

describe('malformed MultiClusterIngress', () => {
  it.each<[string, unknown, string, string]>([
    ['not an object', 'nope', '(object)', 'must be an object'],
    ['spec of the wrong type', mci((o) => (o.spec = [] as any)), 'spec', 'must be an object'],
    [
      'no metadata.name',
      mci((o) => delete (o.metadata as any).name),
      'metadata.name',
      'required field is missing',
    ],
    [
      'name not a DNS subdomain',
      mci((o) => (o.metadata.name = 'Minimal_Ingress')),
      'metadata.name',
      'DNS-1123 subdomain',
    ],
    [
      'neither rules nor defaultBackend',
      mci((o) => (o.spec = {} as any)),
      'spec',
      'defaultBackend or at least one rule',
    ],
    ['rules not an array', mci((o) => ((o.spec as any).rules = {})), 'spec.rules', 'must be an array'],
    [
      'http without paths',
      mci((o) => ((o.spec.rules[0] as any).http = {})),
      'spec.rules[0].http.paths',
      'required field is missing',
    ],
    [
      'http with no path',
      mci((o) => (o.spec.rules[0]!.http.paths = [])),
      'spec.rules[0].http.paths',
      'at least one path',
    ],
    ['missing pathType', mci((o) => delete path0(o).pathType), `${P0}.pathType`, 'required field is missing'],
    [
      'unknown pathType',
      mci((o) => (path0(o).pathType = 'Regex')),
      `${P0}.pathType`,
      'must be one of Exact, Prefix, ImplementationSpecific',
    ],
    ['pathType of the wrong type', mci((o) => (path0(o).pathType = 1)), `${P0}.pathType`, 'must be a string'],
    ['relative Prefix path', mci((o) => (path0(o).path = 'testpath')), `${P0}.path`, 'absolute path'],
    [
      'Exact without a path',
      mci((o) => Object.assign(path0(o), { pathType: 'Exact', path: undefined })),
      `${P0}.path`,
      'absolute path',
    ],
    [
      'relative ImplementationSpecific path',
      mci((o) => Object.assign(path0(o), { pathType: 'ImplementationSpecific', path: 'x' })),
      `${P0}.path`,
      'absolute path',
    ],
    ['path with //', mci((o) => (path0(o).path = '/a//b')), `${P0}.path`, "'//'"],
    ['missing backend', mci((o) => delete path0(o).backend), `${P0}.backend`, 'required field is missing'],
    [
      'backend with neither service nor resource',
      mci((o) => (path0(o).backend = {})),
      `${P0}.backend`,
      'exactly one of service or resource',
    ],
    [
      'backend with both service and resource',
      mci((o) => (path0(o).backend.resource = { kind: 'Bucket', name: 'b' })),
      `${P0}.backend`,
      'not both',
    ],
    [
      'service without name',
      mci((o) => delete path0(o).backend.service.name),
      `${P0}.backend.service.name`,
      'required field is missing',
    ],
    [
      'service name of the wrong type',
      mci((o) => (path0(o).backend.service.name = 42)),
      `${P0}.backend.service.name`,
      'must be a string',
    ],
    [
      'service name not a DNS-1035 label',
      mci((o) => (path0(o).backend.service.name = '1serve')),
      `${P0}.backend.service.name`,
      'DNS-1035 label',
    ],
    [
      'service without port',
      mci((o) => delete path0(o).backend.service.port),
      `${P0}.backend.service.port`,
      'exactly one of name or number',
    ],
    [
      'port with name and number',
      mci((o) => (path0(o).backend.service.port.name = 'http')),
      `${P0}.backend.service.port`,
      'not both',
    ],
    [
      'port number 0',
      mci((o) => (path0(o).backend.service.port.number = 0)),
      `${P0}.backend.service.port.number`,
      'between 1 and 65535',
    ],
    [
      'port number 70000',
      mci((o) => (path0(o).backend.service.port.number = 70000)),
      `${P0}.backend.service.port.number`,
      'between 1 and 65535',
    ],
    [
      'port number beyond int32',
      mci((o) => (path0(o).backend.service.port.number = 2 ** 31)),
      `${P0}.backend.service.port.number`,
      '32-bit integer',
    ],
    [
      'port number not an integer',
      mci((o) => (path0(o).backend.service.port.number = '80')),
      `${P0}.backend.service.port.number`,
      'must be an integer',
    ],
    [
      'invalid port name',
      mci((o) => (path0(o).backend.service.port = { name: 'HTTP' })),
      `${P0}.backend.service.port.name`,
      'lowercase',
    ],
    [
      'resource without kind',
      mci((o) => (path0(o).backend = { resource: { name: 'b' } })),
      `${P0}.backend.resource.kind`,
      'required field is missing',
    ],
    [
      'resource name with a slash',
      mci((o) => (path0(o).backend = { resource: { kind: 'Bucket', name: 'a/b' } })),
      `${P0}.backend.resource.name`,
      "'/'",
    ],
    [
      'defaultBackend with neither',
      mci((o) => ((o.spec as any).defaultBackend = {})),
      'spec.defaultBackend',
      'exactly one of service or resource',
    ],
    [
      'host is an IP address',
      mci((o) => ((o.spec.rules[0] as any).host = '10.0.0.1')),
      'spec.rules[0].host',
      'not an IP address',
    ],
    [
      'host with a misplaced wildcard',
      mci((o) => ((o.spec.rules[0] as any).host = 'a*.example.com')),
      'spec.rules[0].host',
      'wildcard',
    ],
    [
      'tls hosts not strings',
      mci((o) => ((o.spec as any).tls = [{ hosts: [1] }])),
      'spec.tls[0].hosts[0]',
      'must be a string',
    ],
    [
      'tls secretName not a string',
      mci((o) => ((o.spec as any).tls = [{ secretName: true }])),
      'spec.tls[0].secretName',
      'must be a string',
    ],
    [
      'tls secretName not a DNS subdomain',
      mci((o) => ((o.spec as any).tls = [{ secretName: 'My Secret' }])),
      'spec.tls[0].secretName',
      'DNS-1123 subdomain',
    ],
    [
      'ingressClassName of the wrong type',
      mci((o) => ((o.spec as any).ingressClassName = 5)),
      'spec.ingressClassName',
      'must be a string',
    ],
  ])('%s', (_name, obj, field, fragment) => {
    const issues = validateMultiClusterIngress(obj);
    expect(issues).toContainEqual({ field, message: expect.stringContaining(fragment) });
    expect(() => assertValidMultiClusterIngress(obj)).toThrow(InvalidObjectError);
  });
});

describe('malformed MultiClusterService', () => {
  it.each<[string, unknown, string, string]>([
    ['not an object', null, '(object)', 'must be an object'],
    ['no spec', mcs((o) => delete (o as any).spec), 'spec', 'required field is missing'],
    ['no spec.types', mcs((o) => delete (o.spec as any).types), 'spec.types', 'required field is missing'],
    [
      'types not an array',
      mcs((o) => ((o.spec as any).types = 'LoadBalancer')),
      'spec.types',
      'must be an array',
    ],
    [
      'unknown type',
      mcs((o) => (o.spec.types = ['NodePort'])),
      'spec.types[0]',
      'must be one of CrossCluster, LoadBalancer',
    ],
    [
      'two distinct types',
      mcs((o) => (o.spec.types = ['LoadBalancer', 'CrossCluster'])),
      'spec.types',
      'more than one distinct type',
    ],
    ['type not a string', mcs((o) => ((o.spec as any).types = [1])), 'spec.types[0]', 'must be a string'],
    [
      'port without number',
      mcs((o) => ((o.spec as any).ports = [{ name: 'http' }])),
      'spec.ports[0].port',
      'required field is missing',
    ],
    ['port 0', mcs((o) => (o.spec.ports = [{ port: 0 }])), 'spec.ports[0].port', 'between 1 and 65535'],
    [
      'port 65536',
      mcs((o) => (o.spec.ports = [{ port: 65536 }])),
      'spec.ports[0].port',
      'between 1 and 65535',
    ],
    [
      'fractional port',
      mcs((o) => (o.spec.ports = [{ port: 80.5 }])),
      'spec.ports[0].port',
      'must be an integer',
    ],
    [
      'port name not a DNS label',
      mcs((o) => ((o.spec as any).ports = [{ name: 'HTTP', port: 80 }])),
      'spec.ports[0].name',
      'DNS-1123 label',
    ],
    [
      'duplicate port names',
      mcs(
        (o) =>
          ((o.spec as any).ports = [
            { name: 'http', port: 80 },
            { name: 'http', port: 8080 },
          ]),
      ),
      'spec.ports[1].name',
      'duplicate port name "http"',
    ],
    [
      'name not a DNS-1035 label',
      mcs((o) => (o.metadata.name = '1-serve')),
      'metadata.name',
      'DNS-1035 label',
    ],
    ['no metadata', mcs((o) => delete (o as any).metadata), 'metadata.name', 'required field is missing'],
    [
      'providerCluster without name',
      mcs((o) => ((o.spec as any).providerClusters = [{}])),
      'spec.providerClusters[0].name',
      'required field is missing',
    ],
    [
      'consumerCluster name too long',
      mcs((o) => ((o.spec as any).consumerClusters = [{ name: 'c'.repeat(49) }])),
      'spec.consumerClusters[0].name',
      'no more than 48',
    ],
    [
      'range.clusterNames not strings',
      mcs((o) => ((o.spec as any).range = { clusterNames: [1] })),
      'spec.range.clusterNames[0]',
      'must be a string',
    ],
  ])('%s', (_name, obj, field, fragment) => {
    const issues = validateMultiClusterService(obj);
    expect(issues).toContainEqual({ field, message: expect.stringContaining(fragment) });
    expect(() => assertValidMultiClusterService(obj)).toThrow(InvalidObjectError);
  });
});

describe('issues and errors', () => {
  it('reports every problem at once, and each field only once', () => {
    const obj = mci((o) => {
      delete path0(o).pathType;
      path0(o).backend = {};
      o.metadata.name = '';
    });
    const issues = validateMultiClusterIngress(obj);
    expect(issues).toEqual([
      { field: `${P0}.pathType`, message: 'required field is missing' },
      { field: 'metadata.name', message: 'required field is missing' },
      { field: `${P0}.backend`, message: 'must set exactly one of service or resource' },
    ]);
  });

  it('throws InvalidObjectError listing the issues, with the first issue as its field', () => {
    const obj = mci((o) => {
      path0(o).pathType = 'Regex';
      path0(o).backend.service.port.number = 0;
    });
    let caught: unknown;
    try {
      assertValidMultiClusterIngress(obj);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidObjectError);
    const err = caught as InvalidObjectError;
    expect(err.field).toBe(`${P0}.pathType`);
    expect(err.reason).toBe('InvalidSpec');
    expect(err.message).toBe(
      `invalid MultiClusterIngress: ${P0}.pathType: must be one of Exact, Prefix, ImplementationSpecific; ` +
        `${P0}.backend.service.port.number: must be between 1 and 65535, inclusive`,
    );
  });

  it('caps the listed issues', () => {
    const issues = Array.from({ length: 12 }, (_, i) => ({ field: `f${i}`, message: 'bad' }));
    const text = formatIssues(issues);
    expect(text).toContain('f9: bad');
    expect(text).not.toContain('f10');
    expect(text.endsWith('and 2 more')).toBe(true);
  });

  it('names map keys and array indexes apart', () => {
    const obj = mcs((o) => ((o.spec as any).ports = { 0: { port: 80 } }));
    expect(validateMultiClusterService(obj)).toContainEqual({
      field: 'spec.ports',
      message: 'must be an array',
    });
  });
});

describe.each(Object.keys(CRD_VALIDATORS) as CrdValidatorModule[])('generated validator %s', (module) => {
  it('matches what scripts/gen-validators.ts generates from infra/crds (run `npm run gen`)', () => {
    const { js, dts } = generateValidators(module);
    const dir = new URL('../../lib/generated/', import.meta.url);
    expect(readFileSync(new URL(`${module}.js`, dir), 'utf8')).toBe(js);
    expect(readFileSync(new URL(`${module}.d.ts`, dir), 'utf8')).toBe(dts);
  });

  it('imports nothing at runtime', () => {
    const js = readFileSync(new URL(`../../lib/generated/${module}.js`, import.meta.url), 'utf8');
    expect(js).not.toMatch(/\bimport\b|\brequire\(/);
  });
});

describe('status is not validated', () => {
  // Status is written by controllers and validated by the API server; a reconcile must not be
  // blocked by a status it is about to rewrite.
  it('accepts a MultiClusterIngress whose status does not match the schema', () => {
    const obj = mci((o) => ((o as any).status = { loadBalancer: { ingress: [{ ports: [{ port: 'x' }] }] } }));
    expect(validateMultiClusterIngress(obj)).toEqual([]);
  });
  it('accepts a MultiClusterService whose conditions do not match the schema', () => {
    const obj = mcs((o) => ((o as any).status = { conditions: [{ type: 'A', status: 'Maybe' }] }));
    expect(validateMultiClusterService(obj)).toEqual([]);
  });
});
