/**
 * The ALB's edge services: `wafv2-acl-arn` / `wafv2-acl-name` (a regional WAFv2 web ACL to
 * associate, or `none`) and `shield-advanced-protection` (`true` / `false`), as LBC reads them
 * (pkg/ingress/model_build_load_balancer_addons.go). Absent, each is left as it is in AWS, unless
 * we set it up ourselves: the load balancer's record tags say so (tagging.ts WAF_TAG, SHIELD_TAG),
 * and then removing the annotation undoes what we did.
 */
import type { WebAclSpec } from '../types.js';
import { invalid, oneOf, raw, type Annotations } from './parse.js';

export interface EdgeKeys {
  wafv2AclArn: string;
  wafv2AclName: string;
  shieldAdvancedProtection: string;
}

export interface EdgeSettings {
  webAcl?: WebAclSpec;
  shieldAdvanced?: boolean;
}

/** A regional web ACL's ARN: `arn:<partition>:wafv2:<region>:<account>:regional/webacl/<name>/<id>`. */
const WEB_ACL_ARN =
  /^arn:aws[a-z-]*:wafv2:([a-z0-9-]+):(\d{12}):(regional|global)\/webacl\/([\w-]{1,128})\/([0-9a-f-]{1,128})$/;
/** WAFv2's name rule for a web ACL. */
const WEB_ACL_NAME = /^[\w-]{1,128}$/;

function webAcl(
  annotations: Annotations,
  keys: EdgeKeys,
  region: string | undefined,
): WebAclSpec | undefined {
  const arn = raw(annotations, keys.wafv2AclArn);
  const name = raw(annotations, keys.wafv2AclName);
  if (arn !== undefined && name !== undefined) {
    throw invalid(
      keys.wafv2AclName,
      name,
      `cannot be given with ${keys.wafv2AclArn}: name the web ACL one way`,
    );
  }
  if (arn !== undefined) {
    if (arn === 'none') return { kind: 'none' };
    const m = WEB_ACL_ARN.exec(arn);
    if (!m)
      throw invalid(
        keys.wafv2AclArn,
        arn,
        'is not a WAFv2 web ACL ARN (arn:aws:wafv2:<region>:<account>:regional/webacl/<name>/<id>), nor none',
      );
    if (m[3] === 'global') {
      throw invalid(
        keys.wafv2AclArn,
        arn,
        'is a CloudFront (global) web ACL: a load balancer takes a regional one',
      );
    }
    if (region !== undefined && m[1] !== region) {
      throw invalid(
        keys.wafv2AclArn,
        arn,
        `is in Region ${m[1]}, and the load balancer is in ${region}: WAFv2 associates a web ACL with resources of its own Region only`,
      );
    }
    return { kind: 'arn', arn };
  }
  if (name !== undefined) {
    if (name === 'none') return { kind: 'none' };
    if (!WEB_ACL_NAME.test(name)) {
      throw invalid(
        keys.wafv2AclName,
        name,
        'is not a WAFv2 web ACL name (1-128 letters, digits, _ and -), nor none',
      );
    }
    return { kind: 'name', name };
  }
  return undefined;
}

/** The edge settings of a load balancer, checked before any call. */
export function edgeSettings(
  annotations: Annotations,
  keys: EdgeKeys,
  region: string | undefined,
): EdgeSettings {
  const acl = webAcl(annotations, keys, region);
  const shield = oneOf(annotations, keys.shieldAdvancedProtection, ['true', 'false'] as const);
  return {
    ...(acl ? { webAcl: acl } : {}),
    ...(shield !== undefined ? { shieldAdvanced: shield === 'true' } : {}),
  };
}
