/**
 * The ALB listener surface beyond ports and TLS, as the model builds it: listener attributes
 * (`listener-attributes.${Protocol}-${Port}`), mutual TLS (`mutual-authentication`) and the
 * reserved capacity (`minimum-load-balancer-capacity`), with the exact stack shapes and, for each refused
 * form, the exact error naming the annotation.
 */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { minimumCapacityUnits } from '../../lib/providers/aws/model/annotations/capacity.js';
import { ALB_KEYS } from '../../lib/providers/aws/model/annotations/keys.js';
import {
  ALB_LISTENER_ATTRIBUTES,
  albListenerAttributes,
  listenerAttributesKey,
} from '../../lib/providers/aws/model/annotations/listener-attributes.js';
import { albListeners } from '../../lib/providers/aws/model/annotations/listeners.js';
import { buildIngressStack } from '../../lib/providers/aws/model/ingress.js';
import { resourcesOf, ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { config, minimalIngress, service } from '../fixtures/aws/objects.js';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
const LA = (suffix: string) => A(`listener-attributes.${suffix}`);

function refused(fn: () => unknown): { message: string; field: string | undefined; reason: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidObjectError);
    const err = e as InvalidObjectError;
    return { message: err.message, field: err.field, reason: err.reason };
  }
  throw new Error('expected an InvalidObjectError, nothing was thrown');
}
const bad = (key: string, value: string, why: string) => ({
  message: `annotation ${key}: ${JSON.stringify(value)} ${why}`,
  field: key,
  reason: 'InvalidAnnotation',
});

const mciWith = (annotations: Record<string, string>): MultiClusterIngress =>
  minimalIngress({ metadata: { name: 'web', namespace: 'default', annotations } });
const stackOf = (mci: MultiClusterIngress): Stack =>
  buildIngressStack({
    mci,
    services: [service('serve', [{ port: 80, targetPort: 8080, protocol: 'TCP' }])],
    endpointSlices: [],
    config,
  });
const listenerSpecs = (s: Stack) => resourcesOf(s, ResourceTypes.Listener).map((l) => l.spec);

const TWO_PORTS = { [A('listen-ports')]: '[{"HTTP":80},{"HTTPS":443}]', [A('certificate-arn')]: CERT };

describe('listener-attributes.${Protocol}-${Port}', () => {
  it('is one key per listener, spelled as LBC documents it', () => {
    expect(ALB_KEYS.listenerAttributes).toBe(
      'alb.ingress.kubernetes.io/listener-attributes.${Protocol}-${Port}',
    );
    expect(listenerAttributesKey(ALB_KEYS.listenerAttributes, 'HTTPS', 443)).toBe(LA('HTTPS-443'));
  });

  it('sets only the keys given, on the listener named, and nothing on the others', () => {
    const stack = stackOf(
      mciWith({
        ...TWO_PORTS,
        [LA('HTTP-80')]: 'routing.http.response.server.enabled=false',
        [LA('HTTPS-443')]:
          'routing.http.response.strict_transport_security.header_value=max-age=31536000,routing.http.request.x_amzn_tls_version.header_name=X-Tls',
      }),
    );
    expect(listenerSpecs(stack).map((l) => [l.port, l.attributes])).toStrictEqual([
      [80, { 'routing.http.response.server.enabled': 'false' }],
      [
        443,
        {
          'routing.http.response.strict_transport_security.header_value': 'max-age=31536000',
          'routing.http.request.x_amzn_tls_version.header_name': 'X-Tls',
        },
      ],
    ]);
    // Without the annotation a listener has no attributes key at all (so AWS's are left alone).
    const plain = listenerSpecs(stackOf(mciWith(TWO_PORTS)));
    expect(plain.map((l) => Object.hasOwn(l, 'attributes'))).toStrictEqual([false, false]);
  });

  it('a value holds a comma when it is escaped, as in LBC (`\\,`)', () => {
    expect(
      albListeners(
        {
          [LA('HTTP-80')]:
            'routing.http.response.access_control_allow_headers.header_value=exampleValue\\,anotherExampleValue, routing.http.response.server.enabled=true',
        },
        ALB_KEYS,
      ).listeners,
    ).toStrictEqual([
      {
        port: 80,
        protocol: 'HTTP',
        attributes: {
          'routing.http.response.access_control_allow_headers.header_value':
            'exampleValue,anotherExampleValue',
          'routing.http.response.server.enabled': 'true',
        },
      },
    ]);
  });

  it('an empty header value is accepted (the header is not added); a blank annotation sets nothing', () => {
    expect(
      albListenerAttributes(
        { [LA('HTTP-80')]: 'routing.http.response.x_frame_options.header_value=' },
        ALB_KEYS.listenerAttributes,
        [{ port: 80, protocol: 'HTTP' }],
      ),
    ).toStrictEqual(new Map([[80, { 'routing.http.response.x_frame_options.header_value': '' }]]));
    expect(
      albListenerAttributes({ [LA('HTTP-80')]: '  ' }, ALB_KEYS.listenerAttributes, [
        { port: 80, protocol: 'HTTP' },
      ]),
    ).toStrictEqual(new Map());
  });

  it('knows the 19 ALB attributes of API_ListenerAttribute, and accepts a good value of each', () => {
    const good: Record<string, string> = {
      'routing.http.response.server.enabled': 'false',
      'routing.http.response.strict_transport_security.header_value': 'max-age=31536000; includeSubDomains',
      'routing.http.response.access_control_allow_origin.header_value': 'https://example.com',
      'routing.http.response.access_control_allow_methods.header_value': 'GET, POST,OPTIONS',
      'routing.http.response.access_control_allow_headers.header_value': 'X-Custom',
      'routing.http.response.access_control_allow_credentials.header_value': 'true',
      'routing.http.response.access_control_expose_headers.header_value': '*',
      'routing.http.response.access_control_max_age.header_value': '86400',
      'routing.http.response.content_security_policy.header_value': "default-src 'self'",
      'routing.http.response.x_content_type_options.header_value': 'nosniff',
      'routing.http.response.x_frame_options.header_value': 'ALLOW-FROM https://example.com',
    };
    for (const h of [
      'x_amzn_mtls_clientcert_serial_number',
      'x_amzn_mtls_clientcert_issuer',
      'x_amzn_mtls_clientcert_subject',
      'x_amzn_mtls_clientcert_validity',
      'x_amzn_mtls_clientcert_leaf',
      'x_amzn_mtls_clientcert',
      'x_amzn_tls_version',
      'x_amzn_tls_cipher_suite',
    ])
      good[`routing.http.request.${h}.header_name`] = 'X-Renamed_1';
    expect([...ALB_LISTENER_ATTRIBUTES.keys()].sort()).toStrictEqual(Object.keys(good).sort());
    for (const [k, v] of Object.entries(good)) {
      expect(
        albListenerAttributes(
          { [LA('HTTPS-443')]: `${k}=${v.replace(/,/g, '\\,')}` },
          ALB_KEYS.listenerAttributes,
          [{ port: 443, protocol: 'HTTPS' }],
        ).get(443),
      ).toStrictEqual({ [k]: v });
    }
  });

  it.each([
    [
      'routing.http.response.server.enabled=no',
      'routing.http.response.server.enabled=no',
      'must be true or false',
    ],
    [
      'routing.http.request.x_amzn_tls_version.header_name=Bad Name',
      'routing.http.request.x_amzn_tls_version.header_name=Bad Name',
      'must be a header name of 1 to 40 token characters',
    ],
    [
      `routing.http.request.x_amzn_tls_version.header_name=${'X'.repeat(41)}`,
      `routing.http.request.x_amzn_tls_version.header_name=${'X'.repeat(41)}`,
      'must be a header name of 1 to 40 token characters',
    ],
    [
      'routing.http.response.access_control_allow_methods.header_value=GET\\,TRACE',
      'routing.http.response.access_control_allow_methods.header_value=GET,TRACE',
      'must be empty or a comma-separated list of GET, HEAD, POST, DELETE, PUT, PATCH, OPTIONS',
    ],
    [
      'routing.http.response.access_control_max_age.header_value=86401',
      'routing.http.response.access_control_max_age.header_value=86401',
      'must be empty or a number of seconds from 0 to 86400',
    ],
    [
      'routing.http.response.access_control_allow_credentials.header_value=false',
      'routing.http.response.access_control_allow_credentials.header_value=false',
      'must be empty or "true"',
    ],
    [
      'routing.http.response.x_content_type_options.header_value=sniff',
      'routing.http.response.x_content_type_options.header_value=sniff',
      'must be empty or "nosniff"',
    ],
    [
      'routing.http.response.x_frame_options.header_value=ALLOWALL',
      'routing.http.response.x_frame_options.header_value=ALLOWALL',
      'must be empty or DENY, SAMEORIGIN or ALLOW-FROM <origin>',
    ],
    [
      `routing.http.response.content_security_policy.header_value=${'a'.repeat(1025)}`,
      `routing.http.response.content_security_policy.header_value=${'a'.repeat(1025)}`,
      'must be empty or at most 1024 characters on one line',
    ],
  ])('refuses the value in %s', (annotation, shown, why) => {
    expect(refused(() => albListeners({ [LA('HTTP-80')]: annotation }, ALB_KEYS))).toStrictEqual(
      bad(LA('HTTP-80'), shown, why),
    );
  });

  it('refuses an unknown attribute (an NLB one included) and a pair without a key', () => {
    expect(
      refused(() => albListeners({ [LA('HTTP-80')]: 'tcp.idle_timeout.seconds=60' }, ALB_KEYS)),
    ).toStrictEqual(
      bad(
        LA('HTTP-80'),
        'tcp.idle_timeout.seconds',
        'is not an ALB listener attribute (see API_ListenerAttribute)',
      ),
    );
    expect(refused(() => albListeners({ [LA('HTTP-80')]: 'novalue' }, ALB_KEYS))).toStrictEqual(
      bad(LA('HTTP-80'), 'novalue', 'must be a comma-separated list of key=value pairs'),
    );
  });

  it.each(['HTTP-8080', 'HTTPS-80', 'http-80', 'TCP-80', 'HTTP-80x', 'HTTP'])(
    'refuses listener-attributes.%s when listen-ports has no such listener',
    (suffix) => {
      expect(
        refused(() => albListeners({ [LA(suffix)]: 'routing.http.response.server.enabled=false' }, ALB_KEYS)),
      ).toStrictEqual(
        bad(
          LA(suffix),
          'routing.http.response.server.enabled=false',
          `names no listener of listen-ports (the keys here are ${LA('HTTP-80')})`,
        ),
      );
    },
  );

  it('the attributes are part of the fingerprinted stack: a change changes the listener spec only', () => {
    const a = stackOf(
      mciWith({ ...TWO_PORTS, [LA('HTTP-80')]: 'routing.http.response.server.enabled=false' }),
    );
    const b = stackOf(
      mciWith({ ...TWO_PORTS, [LA('HTTP-80')]: 'routing.http.response.server.enabled=true' }),
    );
    const changed = a.resources.filter((r, i) => JSON.stringify(r) !== JSON.stringify(b.resources[i]));
    expect(changed.map((r) => r.id)).toStrictEqual(['80']);
  });
});

describe('mutual-authentication', () => {
  const MA = A('mutual-authentication');
  const TS_ARN = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:truststore/my-store/0123456789abcdef';
  const FOUR = {
    [A('listen-ports')]: '[{"HTTP":80},{"HTTPS":443},{"HTTPS":8443},{"HTTPS":9443}]',
    [A('certificate-arn')]: CERT,
  };
  const mtls = (value: unknown) => albListeners({ ...FOUR, [MA]: JSON.stringify(value) }, ALB_KEYS).listeners;

  it('sets each named HTTPS listener, with AWS’s defaults stated for verify; others get nothing', () => {
    const stack = stackOf(
      mciWith({
        ...FOUR,
        [MA]: JSON.stringify([
          { port: 443, mode: 'verify', trustStore: 'my-store' },
          {
            port: 8443,
            mode: 'verify',
            trustStore: TS_ARN,
            ignoreClientCertificateExpiry: true,
            advertiseTrustStoreCaNames: 'on',
          },
          { port: 9443, mode: 'passthrough' },
        ]),
      }),
    );
    expect(listenerSpecs(stack).map((l) => [l.port, l.mutualAuthentication])).toStrictEqual([
      [80, undefined],
      [
        443,
        {
          mode: 'verify',
          trustStore: 'my-store',
          ignoreClientCertificateExpiry: false,
          advertiseTrustStoreCaNames: 'off',
        },
      ],
      [
        8443,
        {
          mode: 'verify',
          trustStore: TS_ARN,
          ignoreClientCertificateExpiry: true,
          advertiseTrustStoreCaNames: 'on',
        },
      ],
      [9443, { mode: 'passthrough' }],
    ]);
    expect(listenerSpecs(stack).map((l) => Object.hasOwn(l, 'mutualAuthentication'))).toStrictEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(mtls([{ port: 443, mode: 'off' }])[1]).toStrictEqual({
      port: 443,
      protocol: 'HTTPS',
      mutualAuthentication: { mode: 'off' },
    });
  });

  it.each<[unknown, string]>([
    ['not json', 'must be JSON like [{"port": 443, "mode": "verify", "trustStore": "my-store"}]'],
    [[], 'must be a non-empty JSON array'],
    [{ port: 443 }, 'must be a non-empty JSON array'],
    [[443], 'entries must be objects with "port" and "mode"'],
    [[{ port: 80, mode: 'passthrough' }], 'port 80 is not an HTTPS listen-port (443, 8443, 9443)'],
    [[{ port: '443', mode: 'passthrough' }], 'port "443" is not an HTTPS listen-port (443, 8443, 9443)'],
    [[{ port: 444, mode: 'off' }], 'port 444 is not an HTTPS listen-port (443, 8443, 9443)'],
    [
      [
        { port: 443, mode: 'off' },
        { port: 443, mode: 'passthrough' },
      ],
      'names port 443 twice',
    ],
    [[{ port: 443 }], 'port 443: mode must be one of off, passthrough, verify'],
    [
      [{ port: 443, mode: 'VERIFY', trustStore: 'x' }],
      'port 443: mode must be one of off, passthrough, verify',
    ],
    [[{ port: 443, mode: 'verify' }], 'port 443: mode verify needs a trustStore (a trust store ARN or name)'],
    [
      [{ port: 443, mode: 'verify', trustStore: '-bad-' }],
      'port 443: mode verify needs a trustStore (a trust store ARN or name)',
    ],
    [
      [{ port: 443, mode: 'verify', trustStore: 'arn:aws:acm:us-east-1:123456789012:certificate/x' }],
      'port 443: mode verify needs a trustStore (a trust store ARN or name)',
    ],
    [
      [{ port: 443, mode: 'passthrough', trustStore: 'x' }],
      'port 443: trustStore, ignoreClientCertificateExpiry and advertiseTrustStoreCaNames apply only to mode verify',
    ],
    [
      [{ port: 443, mode: 'off', ignoreClientCertificateExpiry: false }],
      'port 443: trustStore, ignoreClientCertificateExpiry and advertiseTrustStoreCaNames apply only to mode verify',
    ],
    [
      [{ port: 443, mode: 'verify', trustStore: 'x', ignoreClientCertificateExpiry: 'yes' }],
      'port 443: ignoreClientCertificateExpiry must be true or false',
    ],
    [
      [{ port: 443, mode: 'verify', trustStore: 'x', advertiseTrustStoreCaNames: true }],
      'port 443: advertiseTrustStoreCaNames must be "on" or "off"',
    ],
    [
      [{ port: 443, mode: 'verify', truststore: 'x' }],
      'has unknown field(s) truststore (allowed: port, mode, trustStore, ignoreClientCertificateExpiry, advertiseTrustStoreCaNames)',
    ],
    [
      [
        { port: 443, mode: 'verify', trustStore: 'a' },
        { port: 8443, mode: 'verify', trustStore: 'b' },
        { port: 9443, mode: 'verify', trustStore: 'c' },
      ],
      "names 3 trust stores: an ALB's listeners can use at most 2",
    ],
  ])('refuses %j', (value, why) => {
    const v = typeof value === 'string' ? value : JSON.stringify(value);
    expect(refused(() => albListeners({ ...FOUR, [MA]: v }, ALB_KEYS))).toStrictEqual(bad(MA, v, why));
  });

  it('without an HTTPS listener every port is refused, and says so', () => {
    const v = '[{"port":80,"mode":"off"}]';
    expect(refused(() => albListeners({ [MA]: v }, ALB_KEYS))).toStrictEqual(
      bad(MA, v, 'port 80 is not an HTTPS listen-port (there is none)'),
    );
  });
});

describe('minimum-load-balancer-capacity', () => {
  const MC = A('minimum-load-balancer-capacity');
  const lbSpec = (s: Stack) => resourcesOf(s, ResourceTypes.LoadBalancer)[0]!.spec;

  it('CapacityUnits=<n>: the units on the load balancer, and the record tag of a reservation', () => {
    const spec = lbSpec(stackOf(mciWith({ [MC]: 'CapacityUnits=1000' })));
    expect(spec.minimumCapacityUnits).toBe(1000);
    expect(spec.tags['multicluster.karmada.io/capacity-units']).toBe('1000');
    expect(minimumCapacityUnits({ [MC]: ' CapacityUnits = 100 ' }, MC)).toBe(100);
  });

  it('CapacityUnits=0 asks for a reset: no record tag; no annotation: neither', () => {
    const reset = lbSpec(stackOf(mciWith({ [MC]: 'CapacityUnits=0' })));
    expect(reset.minimumCapacityUnits).toBe(0);
    expect(Object.keys(reset.tags).filter((k) => k.includes('capacity'))).toStrictEqual([]);
    const none = lbSpec(stackOf(mciWith({})));
    expect(Object.hasOwn(none, 'minimumCapacityUnits')).toBe(false);
    expect(Object.keys(none.tags).filter((k) => k.includes('capacity'))).toStrictEqual([]);
  });

  it.each([
    ['CapacityUnits=99', 'CapacityUnits must be 0 (reset) or a whole number of at least 100'],
    ['CapacityUnits=1', 'CapacityUnits must be 0 (reset) or a whole number of at least 100'],
    ['CapacityUnits=-100', 'CapacityUnits must be 0 (reset) or a whole number of at least 100'],
    ['CapacityUnits=1e3', 'CapacityUnits must be 0 (reset) or a whole number of at least 100'],
    ['CapacityUnits=', 'CapacityUnits must be 0 (reset) or a whole number of at least 100'],
    ['CapacityUnits=1234567890', 'CapacityUnits must be 0 (reset) or a whole number of at least 100'],
    ['capacityunits=100', 'has the key capacityunits: the only key is CapacityUnits'],
    ['CapacityUnits=100,Other=1', 'has the key Other: the only key is CapacityUnits'],
    ['1000', 'must be a comma-separated list of key=value pairs'],
  ])('refuses %s', (value, why) => {
    expect(refused(() => stackOf(mciWith({ [MC]: value })))).toStrictEqual(bad(MC, value, why));
  });
});
