/**
 * Model actions/conditions ⇄ SDK shapes, and a canonical form for comparing what we want with
 * what DescribeRules/DescribeListeners return (which adds ForwardConfig, legacy `Values`, etc.).
 */
import type {
  Action as SdkAction,
  RuleCondition as SdkCondition,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Action, RuleCondition } from '../model/types.js';

export type ArnResolver = (resourceId: string) => string;

export function toSdkActions(actions: readonly Action[], resolve: ArnResolver): SdkAction[] {
  return actions.map((a, i): SdkAction => {
    if (a.type === 'forward')
      return { Type: 'forward', Order: i + 1, TargetGroupArn: resolve(a.targetGroup.$ref) };
    if (a.type === 'redirect') {
      return {
        Type: 'redirect',
        Order: i + 1,
        RedirectConfig: {
          Protocol: a.redirect.protocol,
          Port: a.redirect.port,
          StatusCode: a.redirect.statusCode,
        },
      };
    }
    return {
      Type: 'fixed-response',
      Order: i + 1,
      FixedResponseConfig: {
        StatusCode: a.fixedResponse.statusCode,
        ContentType: a.fixedResponse.contentType,
        ...(a.fixedResponse.messageBody !== undefined ? { MessageBody: a.fixedResponse.messageBody } : {}),
      },
    };
  });
}

export function toSdkConditions(conditions: readonly RuleCondition[]): SdkCondition[] {
  return conditions.map((c): SdkCondition =>
    c.field === 'host-header'
      ? { Field: 'host-header', HostHeaderConfig: { Values: c.values } }
      : { Field: 'path-pattern', PathPatternConfig: { Values: c.values } },
  );
}

/** A string that is equal for equal actions, whichever way ELBv2 spells them. */
export function actionsKey(actions: readonly SdkAction[] | undefined): string {
  const canon = [...(actions ?? [])]
    .sort((a, b) => (a.Order ?? 0) - (b.Order ?? 0))
    .map((a) => {
      if (a.Type === 'forward') {
        const groups = a.ForwardConfig?.TargetGroups ?? [];
        const arn = a.TargetGroupArn ?? (groups.length === 1 ? groups[0]?.TargetGroupArn : undefined);
        return arn !== undefined
          ? ['forward', arn]
          : ['forward', groups.map((g) => `${g.TargetGroupArn ?? ''}=${g.Weight ?? 1}`).sort()];
      }
      if (a.Type === 'fixed-response') {
        const f = a.FixedResponseConfig;
        return ['fixed-response', f?.StatusCode ?? '', f?.ContentType ?? '', f?.MessageBody ?? ''];
      }
      if (a.Type === 'redirect') {
        // ELBv2 reports the defaults it filled in; compare only what we set.
        const r = a.RedirectConfig;
        return ['redirect', r?.Protocol ?? '', r?.Port ?? '', r?.StatusCode ?? ''];
      }
      return [a.Type ?? '', JSON.stringify(a)];
    });
  return JSON.stringify(canon);
}

export function conditionsKey(conditions: readonly SdkCondition[] | undefined): string {
  const canon = (conditions ?? [])
    .map((c) => {
      const values =
        c.Field === 'host-header'
          ? (c.HostHeaderConfig?.Values ?? c.Values)
          : c.Field === 'path-pattern'
            ? (c.PathPatternConfig?.Values ?? c.Values)
            : undefined;
      return values !== undefined ? [c.Field ?? '', [...values].sort()] : [c.Field ?? '', JSON.stringify(c)];
    })
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return JSON.stringify(canon);
}
