import type { Matcher } from '@aws-sdk/client-elastic-load-balancing-v2';
import { validation } from '../errors.js';

/** "200", "200,202" or "200-299" (API_Matcher), every code within [min, max]. */
function codesWithin(text: string, min: number, max: number): boolean {
  return text.split(',').every((part) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return false;
    const low = Number(m[1]);
    const high = Number(m[2] ?? m[1]);
    return low >= min && high <= max && low <= high;
  });
}

/**
 * A health-check matcher: gRPC target groups take GrpcCode (0-99), the others HttpCode
 * (200-499 for ALB target groups, 200-599 for NLB ones).
 */
export function checkMatcher(matcher: Matcher | undefined, group: { grpc: boolean; alb: boolean }): void {
  if (!matcher) return;
  if (group.grpc) {
    if (matcher.HttpCode !== undefined)
      throw validation('HttpCode cannot be used for gRPC target groups; use GrpcCode');
    if (matcher.GrpcCode !== undefined && !codesWithin(matcher.GrpcCode, 0, 99))
      throw validation(`GrpcCode '${matcher.GrpcCode}' must be codes between 0 and 99`);
    return;
  }
  if (matcher.GrpcCode !== undefined)
    throw validation('GrpcCode can be used only for target groups with protocol version GRPC');
  const [min, max] = group.alb ? [200, 499] : [200, 599];
  if (matcher.HttpCode !== undefined && !codesWithin(matcher.HttpCode, min, max))
    throw validation(`HttpCode '${matcher.HttpCode}' must be codes between ${min} and ${max}`);
}
