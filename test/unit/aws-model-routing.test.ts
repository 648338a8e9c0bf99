/**
 * LBC's routing annotations (actions.*, conditions.*, transforms.*, use-regex-path-match) and
 * rule optimisation: each manifest is built into a stack and planned onto an empty listener, and
 * the test asserts the exact ELBv2 CreateRule / CreateListener inputs LBC would make.
 */
import type { Action as SdkAction, CreateRuleCommandInput } from '@aws-sdk/client-elastic-load-balancing-v2';
import { beforeAll, describe, expect, it } from 'vitest';
import { describePlan } from '../../dev/plan/describe.js';
import { buildTopology } from '../../lib/topology/build.js';
import { InvalidObjectError } from '../../lib/errors.js';
import { backendLabel, indexedLabels } from '../../lib/karmada/index-labels.js';
import { serviceRefs } from '../../lib/karmada/refs.js';
import type { HTTPIngressPath, MultiClusterIngress } from '../../lib/karmada/types.js';
import { toSdkActions } from '../../lib/providers/aws/deploy/actions.js';
import { planListenerRules } from '../../lib/providers/aws/deploy/listener-rule.js';
import { ingressBackendServiceNames } from '../../lib/providers/aws/inputs.js';
import { buildIngressStack } from '../../lib/providers/aws/model/ingress.js';
import { DEFAULT_QUOTAS } from '../../lib/providers/aws/model/limits.js';
import { allModelParts, type ModelParts } from '../../lib/providers/aws/model/parts.js';
import { coversConditions, isInfiniteRedirect } from '../../lib/providers/aws/model/rule-optimizer.js';
import { resourcesOf, ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { arnRef } from '../../lib/providers/aws/deploy/refs.js';

const A = 'alb.ingress.kubernetes.io/';

function ingress(
  annotations: Record<string, string>,
  paths: HTTPIngressPath[],
  o: { host?: string; defaultBackend?: MultiClusterIngress['spec'] extends infer S ? S : never } = {},
): MultiClusterIngress {
  return minimalIngress({
    metadata: { name: 'ingress', namespace: 'default', annotations },
    spec: {
      ...(o.defaultBackend ?? {}),
      rules: [{ ...(o.host ? { host: o.host } : {}), http: { paths } }],
    },
  });
}

const services = [
  service('service-1', [{ name: 'http', port: 80, targetPort: 8080 }]),
  service('service-2', [{ name: 'web', port: 80, targetPort: 9090 }]),
  service('my-service'),
];

// What inputs.ts loads for an object with these annotations.
let parts: ModelParts;
beforeAll(async () => {
  parts = await allModelParts();
});

function build(mci: MultiClusterIngress, quotas = config.accountQuotas): Stack {
  return buildIngressStack({
    mci,
    parts,
    services,
    endpointSlices: [
      collectedSlice('member1', 'service-1', { addresses: ['10.0.1.10'] }),
      collectedSlice('member2', 'service-2', { addresses: ['10.0.2.20'] }),
    ],
    config: { ...config, ...(quotas ? { accountQuotas: quotas } : {}) },
  });
}

/** The CreateRule inputs of one listener (by port), without the tags. */
function createRules(
  stack: Stack,
  listener = '80',
): Array<Omit<CreateRuleCommandInput, 'Tags' | 'ListenerArn'>> {
  const rules = resourcesOf(stack, ResourceTypes.ListenerRule).filter(
    (r) => r.spec.listener.$ref === listener,
  );
  return planListenerRules({ externalManagedTags: [] }, 'arn:l', rules, undefined, (id) => `arn:${id}`).map(
    (op) => {
      const input = op.calls[0]?.input as CreateRuleCommandInput;
      const { Tags: _tags, ListenerArn: _arn, ...rest } = input;
      return rest;
    },
  );
}

function refused(fn: () => unknown): InvalidObjectError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InvalidObjectError) return err;
    throw err;
  }
  throw new Error('expected an InvalidObjectError');
}

const useAnnotation = (p: string, name: string, pathType: HTTPIngressPath['pathType'] = 'Exact') =>
  path(p, pathType, name, 'use-annotation');

describe("LBC's actions annotation", () => {
  it("builds the docs' fixed-response, redirect and weighted forward (with stickiness) exactly", () => {
    const stack = build(
      ingress(
        {
          [`${A}actions.response-503`]:
            '{"type":"fixed-response","fixedResponseConfig":{"contentType":"text/plain","statusCode":"503","messageBody":"503 error text"}}',
          [`${A}actions.redirect-to-eks`]:
            '{"type":"redirect","redirectConfig":{"host":"aws.amazon.com","path":"/eks/","port":"443","protocol":"HTTPS","query":"k=v","statusCode":"HTTP_302"}}',
          [`${A}actions.forward-multiple-tg`]:
            '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":"http","weight":20},{"serviceName":"service-2","servicePort":80,"weight":20}],"targetGroupStickinessConfig":{"enabled":true,"durationSeconds":200}}}',
        },
        [
          useAnnotation('/503', 'response-503'),
          useAnnotation('/eks', 'redirect-to-eks'),
          useAnnotation('/path3', 'forward-multiple-tg'),
        ],
      ),
    );
    const pathIs = (p: string) => [{ Field: 'path-pattern', PathPatternConfig: { Values: [p] } }];
    expect(createRules(stack)).toStrictEqual([
      {
        Priority: 1,
        Conditions: pathIs('/503'),
        Actions: [
          {
            Type: 'fixed-response',
            Order: 1,
            FixedResponseConfig: {
              StatusCode: '503',
              ContentType: 'text/plain',
              MessageBody: '503 error text',
            },
          },
        ],
      },
      {
        Priority: 2,
        Conditions: pathIs('/eks'),
        Actions: [
          {
            Type: 'redirect',
            Order: 1,
            RedirectConfig: {
              Protocol: 'HTTPS',
              Port: '443',
              Host: 'aws.amazon.com',
              Path: '/eks/',
              Query: 'k=v',
              StatusCode: 'HTTP_302',
            },
          },
        ],
      },
      {
        Priority: 3,
        Conditions: pathIs('/path3'),
        Actions: [
          {
            Type: 'forward',
            Order: 1,
            ForwardConfig: {
              TargetGroups: [
                { TargetGroupArn: 'arn:default/ingress-service-1:http', Weight: 20 },
                { TargetGroupArn: 'arn:default/ingress-service-2:80', Weight: 20 },
              ],
              TargetGroupStickinessConfig: { Enabled: true, DurationSeconds: 200 },
            },
          },
        ],
      },
    ]);
    // Both Services got their target group, with their own targets; the action names are no Services.
    const tgs = resourcesOf(stack, ResourceTypes.TargetGroup);
    expect(tgs.map((t) => [t.id, t.spec.port, t.spec.targets.map((x) => `${x.id}:${x.port}`)])).toStrictEqual(
      [
        ['default/ingress-service-1:http', 8080, ['10.0.1.10:8080']],
        ['default/ingress-service-2:80', 9090, ['10.0.2.20:9090']],
      ],
    );
  });

  it('a redirect keeps what it leaves out (ELBv2 fills in #{...}); a fixed response needs only its status', () => {
    const stack = build(
      ingress(
        {
          [`${A}actions.to-https`]:
            '{"type":"redirect","redirectConfig":{"protocol":"HTTPS","statusCode":"HTTP_301"}}',
          [`${A}actions.gone`]: '{"Type":"fixed-response","FixedResponseConfig":{"StatusCode":"410"}}',
        },
        [useAnnotation('/old', 'to-https'), useAnnotation('/gone', 'gone')],
      ),
    );
    expect(createRules(stack).map((r) => r.Actions)).toStrictEqual([
      [{ Type: 'redirect', Order: 1, RedirectConfig: { Protocol: 'HTTPS', StatusCode: 'HTTP_301' } }],
      [{ Type: 'fixed-response', Order: 1, FixedResponseConfig: { StatusCode: '410' } }],
    ]);
  });

  it('a forward to one Service without weight or stickiness is a plain forward; with a weight it stays weighted', () => {
    const stack = build(
      ingress(
        {
          [`${A}actions.single`]:
            '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":"80"}]}}',
          [`${A}actions.weighted`]:
            '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-2","servicePort":"web","weight":7}]}}',
        },
        [useAnnotation('/a', 'single'), useAnnotation('/b', 'weighted')],
      ),
    );
    expect(createRules(stack).map((r) => r.Actions)).toStrictEqual([
      // "80" is the port number 80 (LBC's intstr.Parse), the port named http.
      [{ Type: 'forward', Order: 1, TargetGroupArn: 'arn:default/ingress-service-1:80' }],
      [
        {
          Type: 'forward',
          Order: 1,
          ForwardConfig: {
            TargetGroups: [{ TargetGroupArn: 'arn:default/ingress-service-2:web', Weight: 7 }],
          },
        },
      ],
    ]);
  });

  it('the default backend takes its action from the annotation too', () => {
    const mci = ingress(
      { [`${A}actions.nope`]: '{"type":"fixed-response","fixedResponseConfig":{"statusCode":"418"}}' },
      [path('/', 'Prefix', 'my-service', 80)],
    );
    mci.spec = {
      ...mci.spec,
      defaultBackend: { service: { name: 'nope', port: { name: 'use-annotation' } } },
    };
    const [listener] = resourcesOf(build(mci), ResourceTypes.Listener);
    expect(toSdkActions(listener?.spec.defaultActions ?? [], (id) => id)).toStrictEqual<SdkAction[]>([
      { Type: 'fixed-response', Order: 1, FixedResponseConfig: { StatusCode: '418' } },
    ]);
  });

  it('the provider reads the Services a forward names, not the action names', () => {
    const mci = ingress(
      {
        [`${A}actions.canary`]:
          '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"stable","servicePort":80,"weight":90},{"serviceName":"next","servicePort":80,"weight":10}]}}',
        [`${A}actions.broken`]: '{not json',
        [`${A}actions.redirect`]:
          '{"type":"redirect","redirectConfig":{"protocol":"HTTPS","statusCode":"HTTP_301"}}',
      },
      [
        useAnnotation('/', 'canary', 'Prefix'),
        useAnnotation('/x', 'broken'),
        useAnnotation('/y', 'redirect'),
        path('/z', 'Exact', 'plain', 80),
        path('/w', 'Exact', 'stable', 80),
      ],
    );
    expect(ingressBackendServiceNames(mci)).toStrictEqual(['stable', 'next', 'plain']);
    // Karmada's side sees the same Services: they are exported and imported, and a change to one
    // of them (its EndpointSlices) finds this MCI by its backend labels.
    expect(serviceRefs(mci)).toStrictEqual(['next', 'plain', 'stable']);
    expect(Object.keys(indexedLabels(mci)).sort()).toStrictEqual([
      backendLabel('next'),
      backendLabel('plain'),
      backendLabel('stable'),
    ]);
  });

  it.each([
    { name: 'bad JSON', value: '{"type":', message: /actions\.x: is not valid JSON/ },
    { name: 'not an object', value: '[1]', message: /actions\.x: must be a JSON object/ },
    {
      name: 'an unknown action type',
      value: '{"type":"authenticate-oidc"}',
      message: /unknown action type "authenticate-oidc"/,
    },
    { name: 'no type', value: '{}', message: /actions\.x: type: is required/ },
    {
      name: 'an unknown field',
      value: '{"type":"fixed-response","fixedResponseConfig":{"statusCode":"503","colour":"red"}}',
      message: /fixedResponseConfig: unknown field "colour"/,
    },
    {
      name: 'a target group ARN (not ours)',
      value: '{"type":"forward","targetGroupARN":"arn:aws:elasticloadbalancing:us-east-1:1:targetgroup/x/1"}',
      message: /targetGroupARN: forwarding to a target group outside this provider is not supported/,
    },
    {
      name: 'a target group name in forwardConfig',
      value: '{"type":"forward","forwardConfig":{"targetGroups":[{"targetGroupName":"legacy","weight":1}]}}',
      message: /targetGroups\[0\]\.targetGroupName: forwarding to a target group outside/,
    },
    { name: 'a forward without config', value: '{"type":"forward"}', message: /forwardConfig: is required/ },
    {
      name: 'no target groups',
      value: '{"type":"forward","forwardConfig":{"targetGroups":[]}}',
      message: /targetGroups: must list at least one/,
    },
    {
      name: 'several groups, one without weight',
      value:
        '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":80,"weight":1},{"serviceName":"service-2","servicePort":80}]}}',
      message: /targetGroups\[1\]\.weight: must be set/,
    },
    {
      name: 'a weight over 999',
      value:
        '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":80,"weight":1000}]}}',
      message: /weight: must be from 0 to 999/,
    },
    {
      name: 'the same Service port twice',
      value:
        '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":80,"weight":1},{"serviceName":"service-1","servicePort":"80","weight":2}]}}',
      message: /targetGroups\[1\]: names the same Service port as forwardConfig\.targetGroups\[0\]/,
    },
    {
      name: 'stickiness without a duration',
      value:
        '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":80}],"targetGroupStickinessConfig":{"enabled":true}}}',
      message: /durationSeconds: is required when stickiness is enabled/,
    },
    {
      name: 'a missing Service',
      value: '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"ghost","servicePort":80}]}}',
      message:
        /annotation alb\.ingress\.kubernetes\.io\/actions\.x: forwardConfig\.targetGroups\[0\]\.serviceName: Service "ghost" does not exist/,
    },
    {
      name: 'a missing Service port',
      value:
        '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":"grpc"}]}}',
      message: /targetGroups\[0\]\.servicePort: Service "service-1" has no port "grpc"/,
    },
    {
      name: 'a redirect status',
      value: '{"type":"redirect","redirectConfig":{"statusCode":"HTTP_307"}}',
      message: /statusCode: must be HTTP_301 or HTTP_302/,
    },
    {
      name: 'a redirect path',
      value: '{"type":"redirect","redirectConfig":{"path":"eks","statusCode":"HTTP_301"}}',
      message: /redirectConfig\.path: must start with \//,
    },
    {
      name: 'a fixed-response status',
      value: '{"type":"fixed-response","fixedResponseConfig":{"statusCode":"302"}}',
      message: /must be a 2XX, 4XX or 5XX/,
    },
    {
      name: 'another type’s config',
      value: '{"type":"redirect","fixedResponseConfig":{"statusCode":"503"}}',
      message: /fixedResponseConfig: is only for fixed-response actions/,
    },
  ])('refuses $name, naming the annotation', ({ value, message }) => {
    const err = refused(() => build(ingress({ [`${A}actions.x`]: value }, [useAnnotation('/x', 'x')])));
    expect(err.message).toMatch(message);
    expect(err.field).toBe(`${A}actions.x`);
  });

  it('refuses use-annotation without the annotation, naming the backend and the key', () => {
    const err = refused(() => build(ingress({}, [useAnnotation('/x', 'missing')])));
    expect(err.field).toBe('spec.rules[0].http.paths[0].backend.service.port.name');
    expect(err.message).toContain(`${A}actions.missing, which the object does not have`);
    expect(err.reason).toBe('InvalidBackend');
  });

  it('refuses a forward to 6 target groups before any call, naming the annotation', () => {
    const names = Array.from({ length: 6 }, (_, i) => `s${i}`);
    const err = refused(() =>
      buildIngressStack({
        parts,
        mci: ingress(
          {
            [`${A}actions.wide`]: JSON.stringify({
              type: 'forward',
              forwardConfig: {
                targetGroups: names.map((n) => ({ serviceName: n, servicePort: 80, weight: 1 })),
              },
            }),
          },
          [useAnnotation('/', 'wide', 'Prefix')],
        ),
        services: names.map((n) => service(n)),
        endpointSlices: [],
        config,
      }),
    );
    expect(err.message).toBe(
      `spec.rules[0].http.paths[0] (annotation ${A}actions.wide): rule 80:*:Prefix:/ forwards to 6 target groups; ELBv2 allows 5 per action`,
    );
    expect(err.reason).toBe('LimitExceeded');
    expect(err.field).toBe('spec.rules[0].http.paths[0]');
  });
});

describe("LBC's conditions annotation", () => {
  it("merges the docs' seven examples with each rule's host and path, as LBC", () => {
    const fixed =
      '{"type":"fixed-response","fixedResponseConfig":{"contentType":"text/plain","statusCode":"200"}}';
    const conditions: Record<string, string> = {
      'rule-path1': '[{"field":"host-header","hostHeaderConfig":{"values":["anno.example.com"]}}]',
      'rule-path2': '[{"field":"path-pattern","pathPatternConfig":{"values":["/anno/path2"]}}]',
      'rule-path3':
        '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName": "HeaderName", "values":["HeaderValue1", "HeaderValue2"]}}]',
      'rule-path4': '[{"field":"http-request-method","httpRequestMethodConfig":{"Values":["GET", "HEAD"]}}]',
      'rule-path5':
        '[{"field":"query-string","queryStringConfig":{"values":[{"key":"paramA","value":"valueA1"},{"key":"paramA","value":"valueA2"}]}}]',
      'rule-path6': '[{"field":"source-ip","sourceIpConfig":{"values":["192.168.0.0/16", "172.16.0.0/16"]}}]',
      'rule-path7':
        '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName": "HeaderName", "values":["HeaderValue"]}},{"field":"query-string","queryStringConfig":{"values":[{"key":"paramA","value":"valueA"}]}},{"field":"query-string","queryStringConfig":{"values":[{"key":"paramB","value":"valueB"}]}}]',
    };
    const annotations = Object.fromEntries(
      Object.entries(conditions).flatMap(([name, c]) => [
        [`${A}actions.${name}`, fixed],
        [`${A}conditions.${name}`, c],
      ]),
    );
    const stack = build(
      ingress(
        annotations,
        Object.keys(conditions).map((name, i) => useAnnotation(`/path${i + 1}`, name)),
        { host: 'www.example.com' },
      ),
    );
    const host = (...v: string[]) => ({ Field: 'host-header', HostHeaderConfig: { Values: v } });
    const pathIs = (...v: string[]) => ({ Field: 'path-pattern', PathPatternConfig: { Values: v } });
    const header = (...v: string[]) => ({
      Field: 'http-header',
      HttpHeaderConfig: { HttpHeaderName: 'HeaderName', Values: v },
    });
    const query = (key: string, ...v: string[]) => ({
      Field: 'query-string',
      QueryStringConfig: { Values: v.map((value) => ({ Key: key, Value: value })) },
    });
    expect(createRules(stack).map((r) => r.Conditions)).toStrictEqual([
      [host('www.example.com', 'anno.example.com'), pathIs('/path1')],
      [host('www.example.com'), pathIs('/path2', '/anno/path2')],
      [header('HeaderValue1', 'HeaderValue2'), host('www.example.com'), pathIs('/path3')],
      [
        { Field: 'http-request-method', HttpRequestMethodConfig: { Values: ['GET', 'HEAD'] } },
        host('www.example.com'),
        pathIs('/path4'),
      ],
      [query('paramA', 'valueA1', 'valueA2'), host('www.example.com'), pathIs('/path5')],
      [
        { Field: 'source-ip', SourceIpConfig: { Values: ['192.168.0.0/16', '172.16.0.0/16'] } },
        host('www.example.com'),
        pathIs('/path6'),
      ],
      [
        header('HeaderValue'),
        query('paramA', 'valueA'),
        query('paramB', 'valueB'),
        host('www.example.com'),
        pathIs('/path7'),
      ],
    ]);
  });

  it('applies to a plain Service backend too, and regexValues become RegexValues', () => {
    const stack = build(
      ingress(
        {
          [`${A}conditions.my-service`]:
            '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"User-Agent","regexValues":[".+Chrome.+"]}},{"field":"host-header","hostHeaderConfig":{"regexValues":["^(.+)\\\\.example\\\\.com"]}}]',
        },
        [path('/api', 'Exact', 'my-service', 80)],
      ),
    );
    expect(createRules(stack)).toStrictEqual([
      {
        Priority: 1,
        Conditions: [
          {
            Field: 'http-header',
            HttpHeaderConfig: { HttpHeaderName: 'User-Agent', RegexValues: ['.+Chrome.+'] },
          },
          { Field: 'host-header', HostHeaderConfig: { RegexValues: ['^(.+)\\.example\\.com'] } },
          { Field: 'path-pattern', PathPatternConfig: { Values: ['/api'] } },
        ],
        Actions: [{ Type: 'forward', Order: 1, TargetGroupArn: 'arn:default/ingress-my-service:80' }],
      },
    ]);
  });

  it.each([
    { name: 'bad JSON', value: '[{', message: /conditions\.my-service: is not valid JSON/ },
    {
      name: 'an object, not an array',
      value: '{"field":"host-header"}',
      message: /must be a JSON array of conditions/,
    },
    {
      name: 'an unknown field',
      value: '[{"field":"cookie"}]',
      message: /\[0\]\.field: unknown condition field "cookie"/,
    },
    {
      name: 'a missing config',
      value: '[{"field":"source-ip"}]',
      message: /\[0\]\.sourceIPConfig: is required for a source-ip condition/,
    },
    {
      name: 'values and regexValues together',
      value:
        '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X","values":["a"],"regexValues":["b"]}}]',
      message: /regexValues: cannot be given together with values/,
    },
    {
      name: 'regexValues on a method',
      value: '[{"field":"http-request-method","httpRequestMethodConfig":{"regexValues":["G.*"]}}]',
      message: /unknown field "regexValues"/,
    },
    {
      name: 'a regex with a lookahead',
      value:
        '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X","regexValues":["^(?!bot).*$"]}}]',
      message:
        /regexValues: "\^\(\?!bot\)\.\*\$" uses lookaheads and lookbehinds, which ELBv2 does not support/,
    },
    {
      name: 'a regex that does not compile',
      value: '[{"field":"host-header","hostHeaderConfig":{"regexValues":["(a"]}}]',
      message: /regexValues: "\(a" is not a valid regular expression/,
    },
    {
      name: 'a value over 128 characters',
      value: `[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X","values":["${'x'.repeat(129)}"]}}]`,
      message: /is longer than 128 characters/,
    },
    {
      name: 'a lower-case method',
      value: '[{"field":"http-request-method","httpRequestMethodConfig":{"values":["get"]}}]',
      message: /"get" is not a method/,
    },
    {
      name: 'a bad CIDR',
      value: '[{"field":"source-ip","sourceIPConfig":{"values":["10.0.0.0/33"]}}]',
      message: /"10\.0\.0\.0\/33" is not an IPv4 or IPv6 CIDR block/,
    },
    {
      name: 'an empty query value',
      value: '[{"field":"query-string","queryStringConfig":{"values":[{"key":"a"}]}}]',
      message: /values\[0\]\.value: is required/,
    },
    {
      name: 'two method conditions',
      value:
        '[{"field":"http-request-method","httpRequestMethodConfig":{"values":["GET"]}},{"field":"http-request-method","httpRequestMethodConfig":{"values":["PUT"]}}]',
      message: /a rule takes one http-request-method condition/,
    },
    {
      name: 'regex paths besides the path’s own values',
      value: '[{"field":"path-pattern","pathPatternConfig":{"regexValues":["^/v[0-9]+$"]}}]',
      message:
        /path-pattern condition of spec\.rules\[0\]\.http\.paths\[0\] would mix values \(\/api\) with regexValues/,
    },
  ])('refuses $name, naming the annotation', ({ value, message }) => {
    const err = refused(() =>
      build(ingress({ [`${A}conditions.my-service`]: value }, [path('/api', 'Exact', 'my-service', 80)])),
    );
    expect(err.message).toMatch(message);
    expect(err.field).toBe(`${A}conditions.my-service`);
  });

  it.each([
    {
      name: '6 condition values',
      value:
        '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X","values":["1","2","3","4","5"]}}]',
      message: /has 6 condition values; ELBv2 allows 5 per rule/,
    },
    {
      name: '6 wildcards',
      value: '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X","values":["a*b*c*d*e*f*"]}}]',
      message: /has 6 wildcards \(\* and \?\) in its conditions; ELBv2 allows 5 per rule/,
    },
  ])('refuses $name before any call, naming the path and the annotation', ({ value, message }) => {
    const err = refused(() =>
      build(ingress({ [`${A}conditions.my-service`]: value }, [path('/api', 'Exact', 'my-service', 80)])),
    );
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`spec.rules[0].http.paths[0] (annotation ${A}conditions.my-service)`);
    expect(err.reason).toBe('LimitExceeded');
  });

  it('escaped wildcards in query strings and regular expressions are no wildcards', () => {
    expect(() =>
      build(
        ingress(
          {
            [`${A}conditions.my-service`]:
              '[{"field":"query-string","queryStringConfig":{"values":[{"value":"a\\\\*b\\\\?c*d"}]}},{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X","regexValues":["a*b*c*d*e*"]}}]',
          },
          [path('/a*', 'ImplementationSpecific', 'my-service', 80)],
        ),
      ),
    ).not.toThrow();
  });

  it('keeps to 5 match evaluations even where the account allows more condition values', () => {
    const value =
      '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X","values":["1","2","3","4","5"]}}]';
    const err = refused(() =>
      build(ingress({ [`${A}conditions.my-service`]: value }, [path('/api', 'Exact', 'my-service', 80)]), {
        ...DEFAULT_QUOTAS,
        conditionValuesPerRule: 10,
      }),
    );
    expect(err.message).toMatch(
      /has 6 match evaluations \(one per condition value\); ELBv2 allows 5 per rule/,
    );
  });
});

describe("LBC's transforms annotation", () => {
  it("maps the docs' URL and host header rewrites to the rule's Transforms", () => {
    const stack = build(
      ingress(
        {
          [`${A}transforms.my-service`]: JSON.stringify([
            {
              type: 'url-rewrite',
              urlRewriteConfig: { rewrites: [{ regex: '^\\/api\\/(.+)$', replace: '/$1' }] },
            },
            {
              type: 'host-header-rewrite',
              hostHeaderRewriteConfig: {
                rewrites: [{ regex: '^(.+)\\.example\\.com$', replace: '$1.example.org' }],
              },
            },
          ]),
        },
        [path('/api', 'Prefix', 'my-service', 80)],
      ),
    );
    expect(createRules(stack)[0]?.Transforms).toStrictEqual([
      { Type: 'url-rewrite', UrlRewriteConfig: { Rewrites: [{ Regex: '^\\/api\\/(.+)$', Replace: '/$1' }] } },
      {
        Type: 'host-header-rewrite',
        HostHeaderRewriteConfig: {
          Rewrites: [{ Regex: '^(.+)\\.example\\.com$', Replace: '$1.example.org' }],
        },
      },
    ]);
  });

  it.each([
    {
      name: 'an unknown type',
      value: '[{"type":"header-rewrite"}]',
      message: /\[0\]\.type: unknown transform type "header-rewrite"/,
    },
    { name: 'no config', value: '[{"type":"url-rewrite"}]', message: /urlRewriteConfig: is required/ },
    {
      name: 'two rewrites',
      value:
        '[{"type":"url-rewrite","urlRewriteConfig":{"rewrites":[{"regex":"a","replace":"b"},{"regex":"c","replace":"d"}]}}]',
      message: /rewrites: must hold exactly one rewrite/,
    },
    {
      name: 'two URL rewrites',
      value:
        '[{"type":"url-rewrite","urlRewriteConfig":{"rewrites":[{"regex":"a","replace":"b"}]}},{"type":"url-rewrite","urlRewriteConfig":{"rewrites":[{"regex":"c","replace":"d"}]}}]',
      message: /\[1\]\.type: a rule takes one url-rewrite transform/,
    },
    {
      name: 'a backreference',
      value:
        '[{"type":"url-rewrite","urlRewriteConfig":{"rewrites":[{"regex":"^(a)\\\\1$","replace":"b"}]}}]',
      message: /regex: "\^\(a\)\\1\$" uses backreferences/,
    },
    {
      name: 'no replacement',
      value: '[{"type":"url-rewrite","urlRewriteConfig":{"rewrites":[{"regex":"a"}]}}]',
      message: /replace: is required/,
    },
  ])('refuses $name, naming the annotation', ({ value, message }) => {
    const err = refused(() =>
      build(ingress({ [`${A}transforms.my-service`]: value }, [path('/api', 'Exact', 'my-service', 80)])),
    );
    expect(err.message).toMatch(message);
    expect(err.field).toBe(`${A}transforms.my-service`);
  });
});

describe("LBC's use-regex-path-match", () => {
  it('turns ImplementationSpecific paths into RegexValues without the leading /; Exact and Prefix stay patterns', () => {
    const stack = build(
      ingress(
        {
          [`${A}use-regex-path-match`]: 'true',
          [`${A}conditions.service-1`]:
            '[{"field":"path-pattern","pathPatternConfig":{"regexValues":["^/v2/(.+)$"]}}]',
        },
        [
          path('/^/api/(.+)$', 'ImplementationSpecific', 'service-1', 80),
          path('/exact', 'Exact', 'my-service', 80),
          path('/pre', 'Prefix', 'my-service', 80),
        ],
      ),
    );
    expect(createRules(stack).map((r) => r.Conditions)).toStrictEqual([
      [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/exact'] } }],
      [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/pre', '/pre/*'] } }],
      [{ Field: 'path-pattern', PathPatternConfig: { RegexValues: ['^/api/(.+)$', '^/v2/(.+)$'] } }],
    ]);
  });

  it('refuses a path regex ELBv2 would refuse, naming the path', () => {
    const err = refused(() =>
      build(
        ingress({ [`${A}use-regex-path-match`]: 'true' }, [
          path('/^/(?<=a)b$', 'ImplementationSpecific', 'my-service', 80),
        ]),
      ),
    );
    expect(err.field).toBe('spec.rules[0].http.paths[0].path');
    expect(err.message).toContain('uses lookaheads and lookbehinds');
  });

  it('refuses a value that is not a boolean, and a bare "/" as a regex', () => {
    expect(refused(() => build(ingress({ [`${A}use-regex-path-match`]: 'yes' }, []))).field).toBe(
      `${A}use-regex-path-match`,
    );
    expect(
      refused(() =>
        build(
          ingress({ [`${A}use-regex-path-match`]: 'True' }, [
            path('/', 'ImplementationSpecific', 'my-service', 80),
          ]),
        ),
      ).field,
    ).toBe('spec.rules[0].http.paths[0].path');
  });
});

describe("LBC's rule optimisation", () => {
  it('actions.ssl-redirect: the HTTPS listener drops the looping redirect, the HTTP listener every rule after it', () => {
    const stack = build(
      ingress(
        {
          [`${A}listen-ports`]: '[{"HTTP": 80}, {"HTTPS": 443}]',
          [`${A}certificate-arn`]: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
          [`${A}actions.ssl-redirect`]:
            '{"Type": "redirect", "RedirectConfig": { "Protocol": "HTTPS", "Port": "443", "StatusCode": "HTTP_301"}}',
        },
        [useAnnotation('/', 'ssl-redirect', 'Prefix'), path('/api', 'Prefix', 'my-service', 80)],
      ),
    );
    // Sorted by LBC: /api (longer prefix) first, then the catch-all redirect.
    expect(createRules(stack, '80').map((r) => [r.Priority, r.Actions?.[0]?.Type])).toStrictEqual([
      [1, 'forward'],
      [2, 'redirect'],
    ]);
    expect(createRules(stack, '443').map((r) => [r.Priority, r.Actions?.[0]?.Type])).toStrictEqual([
      [1, 'forward'],
    ]);
  });

  it('a redirect at the top shadows the rules it covers, on that listener only', () => {
    const stack = build(
      ingress(
        {
          [`${A}actions.moved`]:
            '{"type":"redirect","redirectConfig":{"host":"new.example.com","statusCode":"HTTP_301"}}',
        },
        [
          useAnnotation('/old', 'moved', 'Exact'),
          path('/old', 'Exact', 'my-service', 80),
          path('/other', 'Exact', 'my-service', 80),
        ],
      ),
    );
    expect(
      createRules(stack).map((r) => [
        r.Priority,
        r.Conditions?.[0]?.PathPatternConfig?.Values,
        r.Actions?.[0]?.Type,
      ]),
    ).toStrictEqual([
      [1, ['/old'], 'redirect'],
      [2, ['/other'], 'forward'],
    ]);
  });

  it.each([
    {
      name: 'to itself on every component',
      redirect: { statusCode: 'HTTP_301' as const, protocol: 'HTTP', port: '80' },
      infinite: true,
    },
    {
      name: 'keywords only',
      redirect: { statusCode: 'HTTP_301' as const, host: '#{host}', path: '/#{path}', query: '#{query}' },
      infinite: true,
    },
    {
      name: 'another protocol',
      redirect: { statusCode: 'HTTP_301' as const, protocol: 'HTTPS' },
      infinite: false,
    },
    { name: 'another port', redirect: { statusCode: 'HTTP_301' as const, port: '8080' }, infinite: false },
    { name: 'a query', redirect: { statusCode: 'HTTP_301' as const, query: 'a=b' }, infinite: false },
    {
      name: 'its own host',
      redirect: { statusCode: 'HTTP_301' as const, host: 'a.example.com' },
      infinite: true,
    },
    {
      name: 'another host',
      redirect: { statusCode: 'HTTP_301' as const, host: 'b.example.com' },
      infinite: false,
    },
    { name: 'its own path', redirect: { statusCode: 'HTTP_301' as const, path: '/p' }, infinite: true },
    { name: 'another path', redirect: { statusCode: 'HTTP_301' as const, path: '/q' }, infinite: false },
  ])('isInfiniteRedirect: $name → $infinite', ({ redirect, infinite }) => {
    const rule = {
      conditions: [
        { field: 'host-header' as const, values: ['a.example.com'] },
        { field: 'path-pattern' as const, values: ['/p'] },
      ],
      actions: [{ type: 'redirect' as const, redirect }],
    };
    expect(isInfiniteRedirect(80, 'HTTP', rule)).toBe(infinite);
    // Regex paths are never compared.
    expect(
      isInfiniteRedirect(80, 'HTTP', {
        ...rule,
        conditions: [{ field: 'path-pattern', values: ['^/p$'], regex: true }],
      }),
    ).toBe(false);
  });

  it.each([
    {
      name: 'no conditions cover all',
      lhs: [],
      rhs: [{ field: 'path-pattern' as const, values: ['/a'] }],
      covers: true,
    },
    {
      name: '/* covers any path',
      lhs: [{ field: 'path-pattern' as const, values: ['/*'] }],
      rhs: [{ field: 'path-pattern' as const, values: ['/a'] }],
      covers: true,
    },
    {
      name: 'a superset of hosts',
      lhs: [{ field: 'host-header' as const, values: ['a', 'b'] }],
      rhs: [{ field: 'host-header' as const, values: ['a'] }],
      covers: true,
    },
    {
      name: 'not a superset of hosts',
      lhs: [{ field: 'host-header' as const, values: ['a'] }],
      rhs: [{ field: 'host-header' as const, values: ['a', 'b'] }],
      covers: false,
    },
    {
      name: 'hosts against none',
      lhs: [{ field: 'host-header' as const, values: ['a'] }],
      rhs: [{ field: 'path-pattern' as const, values: ['/a'] }],
      covers: false,
    },
    {
      name: 'another condition on the left',
      lhs: [{ field: 'source-ip' as const, values: ['10.0.0.0/8'] }],
      rhs: [],
      covers: false,
    },
    {
      name: 'another condition on the right is narrower',
      lhs: [{ field: 'path-pattern' as const, values: ['/a'] }],
      rhs: [
        { field: 'path-pattern' as const, values: ['/a'] },
        { field: 'source-ip' as const, values: ['10.0.0.0/8'] },
      ],
      covers: true,
    },
  ])('coversConditions: $name → $covers', ({ lhs, rhs, covers }) => {
    expect(coversConditions(lhs, rhs)).toBe(covers);
  });
});

describe('the change plan shows actions, conditions and transforms in words', () => {
  it('in the operation detail and in the text plan of each call', () => {
    const stack = build(
      ingress(
        {
          [`${A}actions.canary`]:
            '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":80,"weight":3},{"serviceName":"service-2","servicePort":80,"weight":1}],"targetGroupStickinessConfig":{"enabled":true,"durationSeconds":60}}}',
          [`${A}conditions.canary`]:
            '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"User-Agent","regexValues":[".+Chrome.+"]}},{"field":"query-string","queryStringConfig":{"values":[{"key":"v","value":"2"}]}},{"field":"source-ip","sourceIpConfig":{"values":["10.0.0.0/8"]}},{"field":"http-request-method","httpRequestMethodConfig":{"values":["GET"]}}]',
          [`${A}transforms.canary`]:
            '[{"type":"host-header-rewrite","hostHeaderRewriteConfig":{"rewrites":[{"regex":"^a$","replace":"b"}]}}]',
          [`${A}actions.moved`]:
            '{"type":"redirect","redirectConfig":{"host":"new.example.com","path":"/x","query":"a=1","statusCode":"HTTP_302"}}',
          [`${A}actions.teapot`]:
            '{"type":"fixed-response","fixedResponseConfig":{"statusCode":"418","contentType":"text/plain","messageBody":"short and stout"}}',
        },
        [useAnnotation('/c', 'canary'), useAnnotation('/m', 'moved'), useAnnotation('/t', 'teapot')],
      ),
    );
    const rules = resourcesOf(stack, ResourceTypes.ListenerRule);
    const plan = planListenerRules({ externalManagedTags: [] }, 'arn:l', rules, undefined, (id) =>
      arnRef(id),
    );
    expect(plan.map((o) => o.detail)).toStrictEqual([
      'priority 1: http-header User-Agent ~ .+Chrome.+; query-string v=2; source-ip 10.0.0.0/8; http-request-method GET; path-pattern /c → forward default/ingress-service-1:80 75%, default/ingress-service-2:80 25% (sticky 60 s); rewrite host ^a$ → b',
      'priority 2: path-pattern /m → redirect 302 to #{protocol}://new.example.com:#{port}/x?a=1',
      'priority 3: path-pattern /t → fixed-response 418 text/plain "short and stout"',
    ]);
    expect(describePlan(plan, (o) => o.id)).toStrictEqual([
      '80:*:Exact:/c',
      '    priority 1: if header User-Agent ~ .+Chrome.+ and query v=2 and source 10.0.0.0/8 and method GET and path /c then forward to default/ingress-service-1:80 (weight 3), default/ingress-service-2:80 (weight 1), sticky for 60s',
      '    rewrite host ^a$ → b',
      '80:*:Exact:/m',
      '    priority 2: if path /m then redirect 302 to #{protocol}:#{port} (host new.example.com, path /x, query a=1)',
      '80:*:Exact:/t',
      '    priority 3: if path /t then fixed response 418 text/plain "short and stout"',
    ]);
  });
});

describe('routing annotations that match no backend', () => {
  it('are reported in one Warning (LBC ignores them silently); the ones in use are not', () => {
    const stack = build(
      ingress(
        {
          [`${A}actions.ghost`]: '{"type":"fixed-response","fixedResponseConfig":{"statusCode":"503"}}',
          [`${A}actions.my-service`]: '{"type":"fixed-response","fixedResponseConfig":{"statusCode":"503"}}',
          [`${A}conditions.my-service`]:
            '[{"field":"http-request-method","httpRequestMethodConfig":{"values":["GET"]}}]',
          [`${A}transforms.nobody`]:
            '[{"type":"url-rewrite","urlRewriteConfig":{"rewrites":[{"regex":"a","replace":"b"}]}}]',
          [`${A}actions.used`]: '{"type":"fixed-response","fixedResponseConfig":{"statusCode":"200"}}',
        },
        // my-service is a plain Service backend: its conditions apply, an action would not.
        [path('/a', 'Exact', 'my-service', 80), useAnnotation('/b', 'used')],
      ),
    );
    expect(stack.warnings).toStrictEqual([
      {
        reason: 'UnusedRoutingAnnotation',
        message: `annotations with no effect: ${A}actions.ghost (no backend is service.name ghost with port.name use-annotation); ${A}actions.my-service (no backend is service.name my-service with port.name use-annotation); ${A}transforms.nobody (no path's backend is service.name nobody)`,
        object: { namespace: 'default', name: 'ingress' },
      },
    ]);
  });

  it("LBC's docs manifests carry no warning", () => {
    const stack = build(
      ingress(
        {
          [`${A}actions.forward-multiple-tg`]:
            '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":"http","weight":20},{"serviceName":"service-2","servicePort":80,"weight":20}]}}',
          [`${A}conditions.forward-multiple-tg`]:
            '[{"field":"host-header","hostHeaderConfig":{"values":["anno.example.com"]}}]',
          [`${A}use-regex-path-match`]: 'true',
        },
        [useAnnotation('/path3', 'forward-multiple-tg')],
      ),
    );
    expect(stack.warnings ?? []).toStrictEqual([]);
  });
});

describe('the topology view of routing annotations', () => {
  it('shows weights as shares, every condition field, and a redirect’s defaults', () => {
    const mci = ingress(
      {
        [`${A}actions.canary`]:
          '{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"service-1","servicePort":80,"weight":3},{"serviceName":"service-2","servicePort":80,"weight":1}]}}',
        [`${A}conditions.canary`]:
          '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X-Canary","regexValues":["^y"]}},{"field":"query-string","queryStringConfig":{"values":[{"key":"v","value":"2"}]}}]',
        [`${A}actions.moved`]: '{"type":"redirect","redirectConfig":{"path":"/new","statusCode":"HTTP_301"}}',
      },
      [useAnnotation('/c', 'canary'), useAnnotation('/m', 'moved')],
    );
    const topology = buildTopology({
      object: mci,
      stack: build(mci),
      endpointSlices: [],
      region: 'us-east-1',
    });
    const rules = topology.regions[0]?.loadBalancers[0]?.listeners[0]?.rules ?? [];
    expect(rules.map((r) => [r.conditions, r.action])).toStrictEqual([
      [
        [
          { field: 'http-header X-Canary ~', values: ['^y'] },
          { field: 'query-string', values: ['v=2'] },
          { field: 'path', values: ['/c'] },
        ],
        {
          type: 'forward',
          targetGroups: [
            { id: 'default/ingress-service-1:80', weight: 75 },
            { id: 'default/ingress-service-2:80', weight: 25 },
          ],
        },
      ],
      [
        [{ field: 'path', values: ['/m'] }],
        { type: 'redirect', protocol: '#{protocol}', port: '#{port}', statusCode: '301' },
      ],
    ]);
  });
});
