/**
 * An ALB's listeners (one per listen-port) and their rules: every listener that serves traffic
 * gets the same host/path rules, as LBC does; with ssl-redirect, HTTP listeners only redirect.
 */
import { InvalidObjectError } from '../../../errors.js';
import type { AlbListenerSettings } from './annotations/listeners.js';
import { INVALID_ANNOTATION } from './annotations/parse.js';
import {
  ref,
  ResourceTypes,
  type Action,
  type AuthenticationAction,
  type ListenerResource,
  type ListenerRuleResource,
  type RuleCondition,
  type RuleTransform,
  type Tags,
} from './types.js';
import type { RuleSource } from './limits.js';
import { optimizeRules } from './rule-optimizer.js';

/** One host/path of the MCI, resolved once for every listener. */
export interface Route {
  /** `<host>:<pathType>:<path>`: content-derived, so a rule's resource tag stays true when it moves. */
  key: string;
  /** Where it came from in the object, for errors. */
  field: string;
  /** The routing annotations that shaped it (actions/conditions/transforms), for errors. */
  annotations?: string[];
  conditions: RuleCondition[];
  action: Action;
  /** Authentication in front of `action`, on HTTPS listeners (none can be had on HTTP). */
  authentication?: RouteAuthentication;
  /** The listeners (by port) it goes on; absent: every listener (one MCI's own ALB). */
  ports?: readonly number[];
  transforms?: RuleTransform[];
}

/** An authentication action and the annotation that asked for it (for errors). */
export interface RouteAuthentication {
  action: AuthenticationAction;
  key: string;
}

export interface AlbListenerInput {
  settings: AlbListenerSettings;
  routes: readonly Route[];
  defaultAction: Action;
  defaultAuthentication?: RouteAuthentication | undefined;
  loadBalancer: string;
  tags: (resourceId: string) => Tags;
}

export function albListenerResources(input: AlbListenerInput): {
  listeners: ListenerResource[];
  rules: ListenerRuleResource[];
  /** Rule resource ID → the field path of its path in the object, and the annotations that shaped it. */
  ruleFields: Map<string, RuleSource>;
} {
  const { settings, tags } = input;
  const listeners: ListenerResource[] = [];
  const rules: ListenerRuleResource[] = [];
  const ruleFields = new Map<string, RuleSource>();
  for (const l of settings.listeners) {
    const listenerId = String(l.port);
    const redirects = l.protocol === 'HTTP' && settings.sslRedirectPort !== undefined;
    const tls = l.protocol === 'HTTPS' ? settings.tls : undefined;
    const redirect: Action = {
      type: 'redirect',
      redirect: { protocol: 'HTTPS', port: String(settings.sslRedirectPort), statusCode: 'HTTP_301' },
    };
    const routes = input.routes.filter((route) => route.ports?.includes(l.port) ?? true);
    // ELBv2 authenticates on HTTPS listeners only: serving the route on HTTP would skip it.
    const withAuthentication = (action: Action, auth: RouteAuthentication | undefined, field: string) => {
      if (!auth) return [action];
      if (l.protocol !== 'HTTPS') {
        throw new InvalidObjectError(
          `annotation ${auth.key}: authentication needs HTTPS, but listener HTTP:${l.port} would serve ${field} without it; listen on HTTPS only (listen-ports) or redirect HTTP to HTTPS (ssl-redirect)`,
          { field: auth.key, reason: INVALID_ANNOTATION },
        );
      }
      return [auth.action, action];
    };
    listeners.push({
      id: listenerId,
      type: ResourceTypes.Listener,
      spec: {
        loadBalancer: ref(input.loadBalancer),
        port: l.port,
        protocol: l.protocol,
        defaultActions: redirects
          ? [redirect]
          : withAuthentication(input.defaultAction, input.defaultAuthentication, 'spec.defaultBackend'),
        ...(tls ? { certificates: [...tls.certificates], sslPolicy: tls.sslPolicy } : {}),
        ...(l.attributes ? { attributes: l.attributes } : {}),
        ...(l.mutualAuthentication ? { mutualAuthentication: l.mutualAuthentication } : {}),
        tags: tags(listenerId),
      },
    });
    if (redirects) continue; // LBC: ssl-redirect leaves HTTP listeners without rules.
    const usedIds = new Set<string>();
    const kept = optimizeRules(
      l.port,
      l.protocol,
      // A group member's rules go only on the listeners of its own listen-ports (LBC).
      routes.map((route) => ({
        route,
        conditions: route.conditions,
        actions: withAuthentication(route.action, route.authentication, route.field),
      })),
    );
    kept.forEach(({ route, actions }, i) => {
      const base = `${listenerId}:${route.key}`;
      let id = base;
      for (let n = 2; usedIds.has(id); n++) id = `${base}#${n}`;
      usedIds.add(id);
      ruleFields.set(id, {
        field: route.field,
        ...(route.annotations ? { annotations: route.annotations } : {}),
      });
      rules.push({
        id,
        type: ResourceTypes.ListenerRule,
        spec: {
          listener: ref(listenerId),
          priority: i + 1,
          conditions: route.conditions,
          actions: [...actions],
          ...(route.transforms ? { transforms: route.transforms } : {}),
          tags: tags(id),
        },
      });
    });
  }
  return { listeners, rules, ruleFields };
}
