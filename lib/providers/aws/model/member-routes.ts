/**
 * One member's routes (memberRoutes): each path of each rule, the default backend, their actions
 * (a forward, or an actions annotation's) and authentication, and the routing annotations nothing
 * uses. Pure, as the whole model.
 */
import type { IngressBackend } from '../../../karmada/types.js';
import { InvalidObjectError } from '../../../errors.js';
import { backendsOf } from '../../../karmada/refs.js';
import { annotationActionToModel, USE_ANNOTATION } from './actions.js';
import { resolveBackend, resolveServicePort } from './backends.js';
import { authAnnotations, needsAuthentication } from './annotations/auth-keys.js';
import { ALB_KEYS } from './annotations/keys.js';
import { invalid, raw } from './annotations/parse.js';
import type { Route, RouteAuthentication } from './alb-listeners.js';
import { ruleConditions, sortPaths } from './rules.js';
import type { StackSource } from './stack.js';
import { requirePart } from './parts.js';
import type { Action, ModelWarning, TargetGroupResource } from './types.js';
import {
  forwardTo,
  memberRouting,
  targetGroupFor,
  type AlbSettings,
  type IngressMember,
  type MemberRouting,
  type MemberRoutes,
  type MemberScope,
} from './ingress-member.js';

/**
 * A backend's authentication: its Service's auth keys over the MCI's (an action annotation's
 * backend: the MCI's alone), or the MCI's jwt-validation; ELBv2 takes one per rule. Each backend
 * Service's is worked out once.
 */
function authentications(r: MemberRouting): (backend: IngressBackend) => RouteAuthentication | undefined {
  const { annotations } = r;
  const auth = needsAuthentication(ALB_KEYS, annotations, r.member.services)
    ? requirePart(r.member.parts, 'auth', r.member.mci)
    : undefined;
  if (!auth) return () => undefined;
  const jwt = auth.jwtValidation(annotations, ALB_KEYS);
  const known = new Map<string, RouteAuthentication | undefined>();
  return (backend) => {
    const name = backend.service?.port?.name === USE_ANNOTATION ? '' : (backend.service?.name ?? '');
    if (known.has(name)) return known.get(name);
    const seen = authAnnotations(ALB_KEYS, annotations, r.services.get(name)?.metadata.annotations);
    const authenticate = auth.authenticateAction(seen, ALB_KEYS, r.namespace, r.member.oidcSecrets ?? []);
    if (authenticate && jwt) {
      throw invalid(
        ALB_KEYS.jwtValidation,
        raw(annotations, ALB_KEYS.jwtValidation) ?? '',
        `cannot be combined with ${ALB_KEYS.authType}: ${seen[ALB_KEYS.authType] ?? ''}${name ? ` (Service ${name})` : ''}: ELBv2 takes one authentication action per rule`,
      );
    }
    const found: RouteAuthentication | undefined = authenticate
      ? { action: authenticate, key: ALB_KEYS.authType }
      : jwt
        ? { action: { type: 'jwt-validation', jwt }, key: ALB_KEYS.jwtValidation }
        : undefined;
    known.set(name, found);
    return found;
  };
}

/** What a backend does: forward to its Service, or (port `use-annotation`) the actions annotation's. */
function backendAction(
  r: MemberRouting,
  backend: IngressBackend,
  field: string,
): { action: Action; key?: string } {
  const name = backend.service?.name;
  if (!name || backend.service?.port?.name !== USE_ANNOTATION) {
    return { action: forwardTo(r, resolveBackend(backend, field, r.services), field) };
  }
  const key = `${ALB_KEYS.actions}${name}`;
  const config = r.routing?.annotationAction(r.annotations, ALB_KEYS, name);
  if (!config) {
    throw new InvalidObjectError(
      `${field}.service.port.name: "${USE_ANNOTATION}" takes its action from the annotation ${key}, which the object does not have`,
      { field: `${field}.service.port.name`, reason: 'InvalidBackend' },
    );
  }
  return {
    action: annotationActionToModel(config, (g) =>
      targetGroupFor(
        r,
        resolveServicePort(g.serviceName, g.servicePort, r.services, {
          service: key,
          port: key,
          missingPort: 'servicePort is required',
          serviceText: `annotation ${key}: ${g.path}.serviceName`,
          portText: `annotation ${key}: ${g.path}.servicePort`,
        }),
        `annotation ${key}: ${g.path}`,
      ),
    ),
    key,
  };
}

/**
 * The member's rules, each path of each rule once (so target groups and errors do not depend on
 * the listener count); the listeners copy them onto every listen-port, as LBC does.
 */
function pathRoutes(
  r: MemberRouting,
  authenticationOf: (backend: IngressBackend) => RouteAuthentication | undefined,
  scope: MemberScope | undefined,
): Route[] {
  const { annotations, routing } = r;
  const regexPaths = routing?.useRegexPathMatch(annotations, ALB_KEYS) ? routing.unsupportedRegex : undefined;
  const routes: Route[] = [];
  r.member.mci.spec?.rules?.forEach((rule, ri) => {
    for (const { index, path } of sortPaths(rule.http?.paths ?? [])) {
      const field = `spec.rules[${ri}].http.paths[${index}]`;
      const name = path.backend.service?.name;
      const conditionsKey = name ? `${ALB_KEYS.conditions}${name}` : '';
      const transformsKey = name ? `${ALB_KEYS.transforms}${name}` : '';
      const conditions = ruleConditions(rule.host, path, field, {
        conditions: name && routing ? routing.annotationConditions(annotations, ALB_KEYS, name) : [],
        conditionsKey,
        ...(regexPaths ? { regexPaths } : {}),
      });
      const transforms = name && routing ? routing.annotationTransforms(annotations, ALB_KEYS, name) : [];
      const { action, key: actionKey } = backendAction(r, path.backend, `${field}.backend`);
      const authentication = authenticationOf(path.backend);
      const sources = [
        ...(actionKey ? [actionKey] : []),
        ...(name && raw(annotations, conditionsKey) !== undefined ? [conditionsKey] : []),
        ...(transforms.length > 0 ? [transformsKey] : []),
      ];
      // Content-derived IDs keep a rule's resource tag true when re-ordering changes its priority.
      routes.push({
        key: `${scope?.keyPrefix ?? ''}${rule.host || '*'}:${path.pathType ?? 'ImplementationSpecific'}:${path.path ?? ''}`,
        field,
        ...(sources.length > 0 ? { annotations: sources } : {}),
        conditions,
        action,
        ...(authentication ? { authentication } : {}),
        ...(scope ? { ports: scope.ports } : {}),
        ...(transforms.length > 0 ? { transforms } : {}),
      });
    }
  });
  return routes;
}

/** Routing annotations no backend or path uses: one warning naming them. */
function unusedRoutingWarning(r: MemberRouting): ModelWarning | undefined {
  const { routing, member } = r;
  if (!routing) return undefined;
  const { mci } = member;
  const unused = routing.unusedRoutingAnnotations(r.annotations, ALB_KEYS, {
    actions: new Set(
      backendsOf(mci).flatMap((b) =>
        b.service?.name && b.service.port?.name === USE_ANNOTATION ? [b.service.name] : [],
      ),
    ),
    paths: new Set(
      (mci.spec?.rules ?? []).flatMap((rule) =>
        (rule.http?.paths ?? []).flatMap((p) => p.backend.service?.name ?? []),
      ),
    ),
  });
  if (unused.length === 0) return undefined;
  return {
    reason: routing.UNUSED_ROUTING_ANNOTATION,
    message: `${unused.length === 1 ? 'annotation' : 'annotations'} with no effect: ${unused.join('; ')}`,
    object: r.self,
  };
}

/** Resolves one MCI's backends into target groups (added to `targetGroups`) and its routes. */
export function memberRoutes(
  source: StackSource<unknown>,
  settings: AlbSettings,
  member: IngressMember,
  targetGroups: Map<string, TargetGroupResource>,
  scope?: MemberScope,
): MemberRoutes {
  const r = memberRouting(source, settings, member, targetGroups);
  const authenticationOf = authentications(r);
  const fallback = member.mci.spec?.defaultBackend;
  const defaultAction = fallback ? backendAction(r, fallback, 'spec.defaultBackend').action : undefined;
  const defaultAuthentication = fallback ? authenticationOf(fallback) : undefined;
  const routes = pathRoutes(r, authenticationOf, scope);
  const unused = unusedRoutingWarning(r);
  if (unused) r.warnings.push(unused);
  return {
    routes,
    defaultAction,
    ...(defaultAuthentication ? { defaultAuthentication } : {}),
    warnings: r.warnings,
    ...(r.traffic.length > 0 ? { traffic: r.traffic } : {}),
  };
}
