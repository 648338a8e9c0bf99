import type {
  AddTagsInput,
  DescribeTagsInput,
  DescribeTagsOutput,
  RemoveTagsInput,
  Tag,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';
import { arnKind } from './store.js';
import type { Store } from './store.js';
import { checkTags } from './validate.js';

/** Resolves an ARN of any taggable kind, failing with that kind's NotFound code. */
function requireResource(store: Store, arn: string): void {
  switch (arnKind(arn)) {
    case 'loadbalancer':
      store.loadBalancer(arn);
      return;
    case 'targetgroup':
      store.targetGroup(arn);
      return;
    case 'listener':
      store.listener(arn);
      return;
    case 'rule':
      store.rule(arn);
      return;
    case 'truststore':
      store.trustStore(arn);
      return;
    default:
      throw validation(`'${arn}' is not a valid resource ARN`);
  }
}

function resourceArns(arns: readonly string[] | undefined, max: number): string[] {
  if (!arns || arns.length === 0) throw required('resourceArns');
  if (arns.length > max) throw validation(`A maximum of ${max} resource ARNs can be specified`);
  return [...arns];
}

/** Create-time check, so a create with too many tags fails before anything exists. */
export function checkTagQuota(store: Store, tags: readonly Tag[]): void {
  if (tags.length > store.limits.tagsPerResource) {
    throw new SimError(
      'TooManyTags',
      `The quota for the number of tags per resource (${store.limits.tagsPerResource}) has been reached`,
    );
  }
}

export function applyTags(store: Store, arn: string, tags: readonly Tag[]): void {
  const current = new Map(store.tags.get(arn) ?? []);
  for (const tag of tags) current.set(tag.Key!, tag.Value ?? '');
  if (current.size > store.limits.tagsPerResource) {
    throw new SimError(
      'TooManyTags',
      `The quota for the number of tags per resource (${store.limits.tagsPerResource}) has been reached`,
    );
  }
  store.tags.set(arn, current);
}

export function addTags(store: Store, input: AddTagsInput): Record<string, never> {
  const arns = resourceArns(input.ResourceArns, 20);
  const tags = checkTags(input.Tags);
  if (tags.length === 0) throw required('tags');
  arns.forEach((arn) => requireResource(store, arn));
  // Validate every resource's quota before touching any, so a failure changes nothing.
  for (const arn of arns) {
    const merged = new Set([...(store.tags.get(arn)?.keys() ?? []), ...tags.map((t) => t.Key!)]);
    if (merged.size > store.limits.tagsPerResource) {
      throw new SimError(
        'TooManyTags',
        `The quota for the number of tags per resource (${store.limits.tagsPerResource}) has been reached`,
      );
    }
  }
  arns.forEach((arn) => applyTags(store, arn, tags));
  return {};
}

export function removeTags(store: Store, input: RemoveTagsInput): Record<string, never> {
  const arns = resourceArns(input.ResourceArns, 20);
  if (!input.TagKeys || input.TagKeys.length === 0) throw required('tagKeys');
  arns.forEach((arn) => requireResource(store, arn));
  for (const arn of arns) {
    const current = store.tags.get(arn);
    for (const key of input.TagKeys) current?.delete(key);
  }
  return {};
}

export function describeTags(store: Store, input: DescribeTagsInput): DescribeTagsOutput {
  const arns = resourceArns(input.ResourceArns, 20);
  arns.forEach((arn) => requireResource(store, arn));
  return {
    TagDescriptions: arns.map((arn) => ({
      ResourceArn: arn,
      Tags: [...(store.tags.get(arn) ?? [])].map(([Key, Value]) => ({ Key, Value })),
    })),
  };
}
