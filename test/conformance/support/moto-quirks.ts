/**
 * The moto wrapper: three places where moto 5.2.1's ELBv2 does not do what the AWS API reference
 * says, made to do it, in the gateway in front of moto_server and nowhere else (the provider's
 * code knows nothing of moto). Each is a row of test/conformance/README.md's table.
 *
 * 1. SetRulePriorities: moto refuses a new priority that any rule of the listener has *before* the
 *    call, so a swap (1↔2) fails with PriorityInUse. AWS checks the outcome: the wrapper checks it
 *    too (moto answers the conflicting call itself), then moves the rules through free priorities.
 * 2. RegisterTargets / DescribeTargetHealth: moto keys targets by Id alone (one IP on two ports is
 *    one target) and keeps no AvailabilityZone. The wrapper keeps each target group's targets by
 *    Id and Port with their zone, and answers DescribeTargetHealth from them (moto's answer is
 *    still asked for: its errors and its health states are kept).
 * 3. ModifyTargetGroup: moto drops `Matcher` on a target group whose protocol is not HTTP/HTTPS
 *    (an NLB's TCP group with an HTTP health check). The wrapper keeps the matcher asked for and
 *    writes it into the answers that describe the group.
 */
import type { Forward, Hook, ServiceRequest, ServiceResponse } from './gateway.js';

interface Registered {
  id: string;
  port: string;
  zone?: string;
}

/** The `Targets.member.N.*` (or `RulePriorities.member.N.*`) lists of a query request. */
function members(params: URLSearchParams, list: string): Array<Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  const prefix = `${list}.member.`;
  for (const [k, v] of params) {
    if (!k.startsWith(prefix)) continue;
    const [n, field] = k.slice(prefix.length).split('.', 2) as [string, string];
    const entry = out.get(Number(n)) ?? {};
    entry[field] = v;
    out.set(Number(n), entry);
  }
  return [...out.entries()].sort(([a], [b]) => a - b).map(([, e]) => e);
}

const withBody = (req: ServiceRequest, params: Record<string, string>): ServiceRequest => ({
  ...req,
  body: new URLSearchParams(params).toString(),
});

const ok = (res: ServiceResponse) => res.status >= 200 && res.status < 300;

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const memberBlocks = (xml: string): string[] =>
  xml.match(/<member>[\s\S]*?<\/Target>[\s\S]*?<\/member>/g) ?? [];

/** The listener of a rule, from the rule's ARN (`…:listener-rule/app/<lb>/<id>/<listener>/<rule>`). */
const listenerOf = (ruleArn: string) =>
  ruleArn.replace(':listener-rule/', ':listener/').replace(/\/[^/]+$/, '');

const MAX_PRIORITY = 50_000;

/** An element of a query-protocol answer: its name, its children and its text. */
interface XmlNode {
  name: string;
  children: XmlNode[];
  text: string;
}

/** The query protocol's XML (elements and text, no attributes that matter), as a tree. */
function parseXml(xml: string): XmlNode {
  const root: XmlNode = { name: '', children: [], text: '' };
  const stack = [root];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z0-9_]+)[^>]*?(\/?)>|([^<]+)/g)) {
    const top = stack[stack.length - 1]!;
    if (m[4] !== undefined) top.text += m[4];
    else if (m[1]) stack.pop();
    else {
      const node: XmlNode = { name: m[2]!, children: [], text: '' };
      top.children.push(node);
      if (!m[3]) stack.push(node);
    }
  }
  return root;
}

const child = (n: XmlNode | undefined, name: string) => n?.children.find((c) => c.name === name);
const find = (n: XmlNode, name: string): XmlNode | undefined =>
  n.name === name ? n : n.children.map((c) => find(c, name)).find((x) => x !== undefined);

export function motoQuirkFixes(): { hooks: Record<string, Hook>; reset(): void } {
  /** Target group ARN → its targets, by `id:port`. */
  const targets = new Map<string, Map<string, Registered>>();
  /** Target group ARN → the HttpCode / GrpcCode asked for by ModifyTargetGroup, when moto dropped it. */
  const matchers = new Map<string, { HttpCode?: string; GrpcCode?: string }>();

  const targetGroupPort = async (req: ServiceRequest, forward: Forward, arn: string): Promise<string> => {
    const res = await forward(
      withBody(req, {
        Action: 'DescribeTargetGroups',
        Version: '2015-12-01',
        'TargetGroupArns.member.1': arn,
      }),
    );
    return /<Port>(\d+)<\/Port>/.exec(res.body)?.[1] ?? '';
  };

  const registerTargets: Hook = async (req, forward) => {
    const params = new URLSearchParams(req.body);
    const arn = params.get('TargetGroupArn') ?? '';
    const res = await forward(req);
    if (!ok(res)) return res;
    const given = members(params, 'Targets');
    const defaultPort = given.some((t) => t.Port === undefined)
      ? await targetGroupPort(req, forward, arn)
      : '';
    const known = targets.get(arn) ?? new Map<string, Registered>();
    for (const t of given) {
      const port = t.Port ?? defaultPort;
      known.set(`${t.Id}:${port}`, {
        id: t.Id ?? '',
        port,
        ...(t.AvailabilityZone ? { zone: t.AvailabilityZone } : {}),
      });
    }
    targets.set(arn, known);
    return res;
  };

  const deregisterTargets: Hook = async (req, forward) => {
    const params = new URLSearchParams(req.body);
    const arn = params.get('TargetGroupArn') ?? '';
    const known = targets.get(arn);
    const given = members(params, 'Targets');
    const defaultPort = given.some((t) => t.Port === undefined)
      ? await targetGroupPort(req, forward, arn)
      : '';
    // moto forgets an Id on any port: send it only the Ids that no other port of theirs keeps.
    const leaving = new Set(given.map((t) => `${t.Id}:${t.Port ?? defaultPort}`));
    const staying = new Set(
      [...(known?.keys() ?? [])].filter((k) => !leaving.has(k)).map((k) => k.split(':')[0]),
    );
    const forMoto = given.filter((t) => !staying.has(t.Id));
    if (forMoto.length > 0) {
      const body: Record<string, string> = {
        Action: 'DeregisterTargets',
        Version: '2015-12-01',
        TargetGroupArn: arn,
      };
      forMoto.forEach((t, i) => {
        body[`Targets.member.${i + 1}.Id`] = t.Id ?? '';
        if (t.Port) body[`Targets.member.${i + 1}.Port`] = t.Port;
      });
      const res = await forward(withBody(req, body));
      if (!ok(res)) return res;
    }
    for (const k of leaving) known?.delete(k);
    return {
      status: 200,
      headers: { 'content-type': 'text/xml' },
      body: '<DeregisterTargetsResponse xmlns="http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/"><DeregisterTargetsResult/><ResponseMetadata><RequestId>conformance-wrapper</RequestId></ResponseMetadata></DeregisterTargetsResponse>',
    };
  };

  const describeTargetHealth: Hook = async (req, forward) => {
    const params = new URLSearchParams(req.body);
    const arn = params.get('TargetGroupArn') ?? '';
    const res = await forward(req);
    if (!ok(res)) return res;
    const blocks = memberBlocks(res.body);
    const byId = new Map<string, string>();
    for (const b of blocks) {
      const id = /<Id>([^<]*)<\/Id>/.exec(b)?.[1] ?? '';
      if (!byId.has(id)) byId.set(id, b);
    }
    const known = targets.get(arn) ?? new Map<string, Registered>();
    const asked = members(params, 'Targets');
    const wanted: Array<Registered | { id: string; port: string; unknown: string }> = asked.length
      ? asked.map((t) => {
          const hit = [...known.values()].find(
            (k) => k.id === t.Id && (t.Port === undefined || k.port === t.Port),
          );
          return hit ?? { id: t.Id ?? '', port: t.Port ?? '', unknown: byId.get(t.Id ?? '') ?? '' };
        })
      : [...known.values()];
    const rendered = wanted.map((t) => {
      if ('unknown' in t) return t.unknown;
      const template = byId.get(t.id) ?? '';
      const health =
        /<TargetHealth>[\s\S]*?<\/TargetHealth>/.exec(template)?.[0] ??
        '<TargetHealth><State>healthy</State></TargetHealth>';
      const checkPort = /<HealthCheckPort>[^<]*<\/HealthCheckPort>/.exec(template)?.[0] ?? '';
      const zone = t.zone ? `<AvailabilityZone>${xmlEscape(t.zone)}</AvailabilityZone>` : '';
      return `<member><Target><Id>${xmlEscape(t.id)}</Id><Port>${t.port}</Port>${zone}</Target>${checkPort}${health}</member>`;
    });
    const body = res.body.replace(
      /<TargetHealthDescriptions>[\s\S]*<\/TargetHealthDescriptions>|<TargetHealthDescriptions\/>/,
      `<TargetHealthDescriptions>${rendered.join('')}</TargetHealthDescriptions>`,
    );
    return { ...res, body };
  };

  const deleteTargetGroup: Hook = async (req, forward) => {
    const arn = new URLSearchParams(req.body).get('TargetGroupArn') ?? '';
    const res = await forward(req);
    if (ok(res)) {
      targets.delete(arn);
      matchers.delete(arn);
    }
    return res;
  };

  /** The target groups of an answer, each `<member>` with the matcher moto dropped put back. */
  const withMatchers = (res: ServiceResponse): ServiceResponse => {
    if (!ok(res) || matchers.size === 0) return res;
    const body = res.body.replace(
      /<member><TargetGroupArn>([^<]+)<\/TargetGroupArn>[\s\S]*?<\/member>/g,
      (block, arn: string) => {
        const m = matchers.get(arn);
        if (!m) return block;
        const matcher = `<Matcher>${m.HttpCode ? `<HttpCode>${xmlEscape(m.HttpCode)}</HttpCode>` : ''}${m.GrpcCode ? `<GrpcCode>${xmlEscape(m.GrpcCode)}</GrpcCode>` : ''}</Matcher>`;
        return /<Matcher>[\s\S]*?<\/Matcher>/.test(block)
          ? block.replace(/<Matcher>[\s\S]*?<\/Matcher>/, matcher)
          : block.replace('</TargetGroupName>', `</TargetGroupName>${matcher}`);
      },
    );
    return { ...res, body };
  };

  const modifyTargetGroup: Hook = async (req, forward) => {
    const params = new URLSearchParams(req.body);
    const res = await forward(req);
    if (!ok(res)) return res;
    const protocol = /<Protocol>([^<]+)<\/Protocol>/.exec(res.body)?.[1];
    const http = params.get('Matcher.HttpCode') ?? undefined;
    const grpc = params.get('Matcher.GrpcCode') ?? undefined;
    if ((http !== undefined || grpc !== undefined) && protocol !== 'HTTP' && protocol !== 'HTTPS') {
      matchers.set(params.get('TargetGroupArn') ?? '', {
        ...(http !== undefined ? { HttpCode: http } : {}),
        ...(grpc !== undefined ? { GrpcCode: grpc } : {}),
      });
    }
    return withMatchers(res);
  };

  const describeTargetGroups: Hook = async (req, forward) => withMatchers(await forward(req));

  const setRulePriorities: Hook = async (req, forward) => {
    const params = new URLSearchParams(req.body);
    const asked = members(params, 'RulePriorities').map((r) => ({
      arn: r.RuleArn ?? '',
      priority: r.Priority ?? '',
    }));
    const listeners = [...new Set(asked.map((r) => listenerOf(r.arn)))];
    // Every listener's rules now, and what the call would leave them at.
    const current = new Map<string, { listener: string; priority: string }>();
    for (const listener of listeners) {
      const res = await forward(
        withBody(req, { Action: 'DescribeRules', Version: '2015-12-01', ListenerArn: listener }),
      );
      // An unknown listener or rule: moto's own answer is the error AWS gives.
      if (!ok(res)) return forward(req);
      for (const rule of find(parseXml(res.body), 'Rules')?.children ?? []) {
        current.set(child(rule, 'RuleArn')?.text ?? '', {
          listener,
          priority: child(rule, 'Priority')?.text ?? '',
        });
      }
    }
    if (asked.some((r) => !current.has(r.arn))) return forward(req);
    const after = new Map([...current].map(([arn, c]) => [arn, { ...c }]));
    for (const r of asked) after.get(r.arn)!.priority = r.priority;
    const seen = new Set<string>();
    for (const { listener, priority } of after.values()) {
      const key = `${listener} ${priority}`;
      // A conflict in the outcome: AWS refuses it as moto does, so moto answers.
      if (priority !== 'default' && seen.has(key)) return forward(req);
      seen.add(key);
    }
    // No conflict in the outcome: first through priorities nobody holds, then to the asked ones.
    const taken = new Set([...current.values(), ...after.values()].map((c) => c.priority));
    let free = MAX_PRIORITY;
    const step: Record<string, string> = { Action: 'SetRulePriorities', Version: '2015-12-01' };
    asked.forEach((r, i) => {
      while (taken.has(String(free))) free--;
      step[`RulePriorities.member.${i + 1}.RuleArn`] = r.arn;
      step[`RulePriorities.member.${i + 1}.Priority`] = String(free--);
    });
    const first = await forward(withBody(req, step));
    if (!ok(first)) return first;
    return forward(req);
  };

  return {
    hooks: {
      'elasticloadbalancing:RegisterTargets': registerTargets,
      'elasticloadbalancing:DeregisterTargets': deregisterTargets,
      'elasticloadbalancing:DescribeTargetHealth': describeTargetHealth,
      'elasticloadbalancing:DeleteTargetGroup': deleteTargetGroup,
      'elasticloadbalancing:ModifyTargetGroup': modifyTargetGroup,
      'elasticloadbalancing:DescribeTargetGroups': describeTargetGroups,
      'elasticloadbalancing:SetRulePriorities': setRulePriorities,
    },
    reset() {
      targets.clear();
      matchers.clear();
    },
  };
}
