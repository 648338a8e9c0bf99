/**
 * The Resource Groups Tagging API's GetResources over the simulated account's ELBv2 resources, on
 * its real wire protocol (awsJson1_1: `POST /`, `X-Amz-Target:
 * ResourceGroupsTaggingAPI_20170126.GetResources`, JSON body and response, errors as
 * `{ "__type", "message" }`), so the real `@aws-sdk/client-resource-groups-tagging-api` talks to
 * it. Served by the ELBv2 simulator's server (requests carrying that target header), from the same
 * state: what ELBv2's AddTags wrote is what GetResources returns. Semantics as documented:
 * TagFilters AND together, a filter's Values OR together (no Values: the key with any value);
 * ResourceTypeFilters `service` or `service:type` (`elasticloadbalancing:loadbalancer`,
 * `elasticloadbalancing:targetgroup`, `…:listener`, `…:listener-rule`); only tagged resources;
 * ResourcesPerPage 1–100 (default 100); the last page has an empty PaginationToken.
 */
import type { Elbv2State } from './state/index.js';

export const TAGGING_TARGET_PREFIX = 'ResourceGroupsTaggingAPI_20170126.';
const MAX_PER_PAGE = 100;

export class TaggingError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

interface GetResourcesInput {
  PaginationToken?: string;
  TagFilters?: Array<{ Key?: string; Values?: string[] }>;
  ResourcesPerPage?: number;
  ResourceTypeFilters?: string[];
  ResourceARNList?: string[];
}

/** `arn:aws:elasticloadbalancing:r:a:loadbalancer/app/n/id` → `elasticloadbalancing:loadbalancer`. */
function resourceTypeOf(arn: string): string {
  const parts = arn.split(':');
  return `${parts[2] ?? ''}:${(parts.slice(5).join(':').split('/')[0] ?? '').toLowerCase()}`;
}

function getResources(state: Elbv2State, input: GetResourcesInput): unknown {
  const perPage = input.ResourcesPerPage ?? MAX_PER_PAGE;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE)
    throw new TaggingError('InvalidParameterException', 'ResourcesPerPage must be between 1 and 100');
  if (input.ResourceARNList && (input.TagFilters?.length || input.ResourceTypeFilters?.length))
    throw new TaggingError(
      'InvalidParameterException',
      'ResourceARNList cannot be combined with TagFilters or ResourceTypeFilters',
    );
  const filters = input.TagFilters ?? [];
  if (filters.length > 50) throw new TaggingError('InvalidParameterException', 'at most 50 TagFilters');
  const types = input.ResourceTypeFilters ?? [];
  const arns = input.ResourceARNList ? new Set(input.ResourceARNList) : undefined;
  const matching = state.tags().filter(({ ResourceArn, Tags }) => {
    if (arns && !arns.has(ResourceArn)) return false;
    const type = resourceTypeOf(ResourceArn);
    if (types.length && !types.some((t) => t === type || t === type.split(':')[0])) return false;
    return filters.every(
      (f) =>
        f.Key !== undefined && f.Key in Tags && (!f.Values?.length || f.Values.includes(Tags[f.Key] ?? '')),
    );
  });
  const start = input.PaginationToken ? Number.parseInt(input.PaginationToken, 36) : 0;
  if (!Number.isInteger(start) || start < 0 || start > matching.length)
    throw new TaggingError('PaginationTokenExpiredException', 'the pagination token is not valid');
  const page = matching.slice(start, start + perPage);
  const next = start + perPage < matching.length ? (start + perPage).toString(36) : '';
  return {
    PaginationToken: next,
    ResourceTagMappingList: page.map(({ ResourceArn, Tags }) => ({
      ResourceARN: ResourceArn,
      Tags: Object.entries(Tags).map(([Key, Value]) => ({ Key, Value })),
    })),
  };
}

/** Answers one tagging request: the operation named by the target header, the parsed JSON body. */
export function taggingRequest(state: Elbv2State, target: string, body: string): unknown {
  const operation = target.slice(TAGGING_TARGET_PREFIX.length);
  let input: unknown;
  try {
    input = body ? JSON.parse(body) : {};
  } catch {
    throw new TaggingError('SerializationException', 'the request body is not JSON');
  }
  if (operation === 'GetResources') return getResources(state, input as GetResourcesInput);
  throw new TaggingError('UnknownOperationException', `${operation} is not supported by the simulator`);
}
