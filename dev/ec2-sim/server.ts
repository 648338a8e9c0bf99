import { readBody } from '../shared/http-body.js';
import type { RequestListener } from '../shared/in-process.js';
import { sleep } from '../../lib/util/sleep.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { CallCounters } from '../elbv2-sim/calls.js';
import type { Faults } from '../elbv2-sim/faults.js';
import { Ec2Error, faultError } from './errors.js';
import { Ec2Params } from './query.js';
import type { XmlTree } from './resources.js';
import type { Ec2State } from './state.js';
import { errorXml, successXml } from './xml.js';

export const EC2_API_VERSION = '2016-11-15';

const ACTIONS: Readonly<Record<string, (state: Ec2State, params: Ec2Params) => XmlTree>> = {
  DescribeVpcs: (state, params) => state.describeVpcs(params.describe('VpcId')),
  DescribeSubnets: (state, params) => state.describeSubnets(params.describe('SubnetId')),
  CreateSecurityGroup: (state, params) => state.securityGroups.create(params),
  DescribeSecurityGroups: (state, params) => state.securityGroups.describe(params),
  AuthorizeSecurityGroupIngress: (state, params) => state.securityGroups.authorizeIngress(params),
  RevokeSecurityGroupIngress: (state, params) => state.securityGroups.revokeIngress(params),
  DeleteSecurityGroup: (state, params) => state.securityGroups.delete(params),
  CreateTags: (state, params) => state.createTags(params.list('ResourceId'), params.tags(), params.dryRun()),
  DeleteTags: (state, params) => state.deleteTags(params.list('ResourceId'), params.tags(), params.dryRun()),
};

export const SUPPORTED_ACTIONS: readonly string[] = Object.keys(ACTIONS).sort();

export interface ServerDeps {
  state: Ec2State;
  faults: Faults;
  calls: CallCounters;
}

const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new Ec2Error('InvalidParameterValue', 'Request body too large');

function serve(params: Ec2Params, deps: ServerDeps): { action: string; result: XmlTree } {
  const action = params.get('Action');
  if (!action) throw new Ec2Error('MissingAction', 'The request must contain the parameter Action');
  if (params.get('Version') === undefined)
    throw new Ec2Error('MissingParameter', 'The request must contain the parameter Version');
  if (params.get('Version') !== EC2_API_VERSION)
    throw new Ec2Error('InvalidParameterValue', `Unsupported API version '${params.get('Version')}'`);
  const handler = ACTIONS[action];
  if (!handler)
    throw new Ec2Error('InvalidAction', `The action ${action} is not valid for this web service.`);
  return { action, result: handler(deps.state, params) };
}

/** The simulator's request listener: what its HTTP server runs, or an in-process client directly. */
export function requestListener(deps: ServerDeps): RequestListener {
  let requestSeq = 0;
  const send = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, {
      'content-type': 'text/xml;charset=UTF-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = `ec25e1b5-0000-4000-8000-${String(++requestSeq).padStart(12, '0')}`;
    let params: Ec2Params;
    try {
      const query = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      params = new Ec2Params(
        [query, await readBody(req, MAX_BODY_BYTES, tooLarge)].filter(Boolean).join('&'),
      );
    } catch (err) {
      const e = err instanceof Ec2Error ? err : new Ec2Error('InternalError', String(err), 500);
      send(res, e.status, errorXml(e, requestId));
      return;
    }
    const action = params.get('Action') ?? '';
    const decision = deps.faults.decide(action);
    const latency = deps.faults.latencyFor(action);
    if (latency > 0) await sleep(latency);
    if (decision.kind === 'drop' || decision.kind === 'dropAfterCommit') {
      // After the commit: the call takes effect (a group created, a rule added), the answer is lost.
      if (decision.kind === 'dropAfterCommit') {
        try {
          serve(params, deps);
        } catch {
          // Refused anyway: nothing was committed.
        }
      }
      deps.calls.record(action, 'fault', { fault: decision.fault });
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'error') {
      deps.calls.record(action, 'fault', { fault: decision.fault, code: decision.code });
      const e = faultError(decision.code, decision.message, decision.status);
      send(res, e.status, errorXml(e, requestId));
      return;
    }
    try {
      const served = serve(params, deps);
      deps.calls.record(action, 'ok');
      send(res, 200, successXml(served.action, served.result, requestId));
    } catch (err) {
      const e =
        err instanceof Ec2Error ? err : new Ec2Error('InternalError', `Simulator bug: ${String(err)}`, 500);
      deps.calls.record(action, 'error', { code: e.code });
      send(res, e.status, errorXml(e, requestId));
    }
  };

  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  };
}

export function startServer(deps: ServerDeps, host: string, port: number): Promise<Server> {
  const server = createServer(requestListener(deps));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
