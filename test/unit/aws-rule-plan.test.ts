import { describe, expect, it } from 'vitest';
import { planRules, STALE_PRIORITY_CEILING } from '../../lib/providers/aws/deploy/rule-plan.js';
import { diffTargets } from '../../lib/providers/aws/deploy/targets.js';

const d = (settings: string, priority: number) => ({ id: settings, settings, priority });
const a = (arn: string, settings: string, priority: number) => ({ arn, settings, priority });

describe('Function: planRules', () => {
  it.each([
    {
      name: 'nothing to do',
      desired: [d('A', 1), d('B', 2)],
      actual: [a('r1', 'A', 1), a('r2', 'B', 2)],
      expected: {
        setPriorities: [],
        modify: [],
        create: [],
        delete: [],
        keep: [
          { arn: 'r1', desired: d('A', 1) },
          { arn: 'r2', desired: d('B', 2) },
        ],
        unchanged: 2,
      },
    },
    {
      name: 'a new rule in front: move the old one, create the new one',
      desired: [d('N', 1), d('A', 2)],
      actual: [a('r1', 'A', 1)],
      expected: {
        setPriorities: [{ arn: 'r1', priority: 2 }],
        modify: [],
        create: [d('N', 1)],
        delete: [],
        keep: [{ arn: 'r1', desired: d('A', 2) }],
        unchanged: 0,
      },
    },
    {
      name: 're-order: one atomic swap, nothing modified',
      desired: [d('B', 1), d('A', 2)],
      actual: [a('r1', 'A', 1), a('r2', 'B', 2)],
      expected: {
        setPriorities: [
          { arn: 'r2', priority: 1 },
          { arn: 'r1', priority: 2 },
        ],
        modify: [],
        create: [],
        delete: [],
        keep: [
          { arn: 'r2', desired: d('B', 1) },
          { arn: 'r1', desired: d('A', 2) },
        ],
        unchanged: 0,
      },
    },
    {
      name: 'changed action at the same priority: modify in place',
      desired: [d('A2', 1)],
      actual: [a('r1', 'A', 1)],
      expected: {
        setPriorities: [],
        modify: [{ arn: 'r1', desired: d('A2', 1) }],
        create: [],
        delete: [],
        keep: [],
        unchanged: 0,
      },
    },
    {
      name: 'a removed rule on a needed priority is pushed away before the move, deleted after',
      desired: [d('B', 1)],
      actual: [a('r1', 'A', 1), a('r2', 'B', 2)],
      expected: {
        setPriorities: [
          { arn: 'r2', priority: 1 },
          { arn: 'r1', priority: STALE_PRIORITY_CEILING },
        ],
        modify: [],
        create: [],
        delete: ['r1'],
        keep: [{ arn: 'r2', desired: d('B', 1) }],
        unchanged: 0,
      },
    },
    {
      name: 'a removed last rule is just deleted',
      desired: [d('A', 1)],
      actual: [a('r1', 'A', 1), a('r2', 'B', 2)],
      expected: {
        setPriorities: [],
        modify: [],
        create: [],
        delete: ['r2'],
        keep: [{ arn: 'r1', desired: d('A', 1) }],
        unchanged: 1,
      },
    },
    {
      name: 'pushed priorities skip ones still held by leftovers',
      desired: [d('A', 1)],
      actual: [a('r1', 'X', 1), a('r2', 'A', 2), a('r3', 'Y', STALE_PRIORITY_CEILING)],
      expected: {
        setPriorities: [
          { arn: 'r2', priority: 1 },
          { arn: 'r1', priority: STALE_PRIORITY_CEILING - 1 },
        ],
        modify: [],
        create: [],
        delete: ['r1', 'r3'],
        keep: [{ arn: 'r2', desired: d('A', 1) }],
        unchanged: 0,
      },
    },
    {
      name: 'a moved rule frees its old priority for a pushed one',
      desired: [d('A', 1)],
      actual: [a('r1', 'X', 1), a('r2', 'A', STALE_PRIORITY_CEILING)],
      expected: {
        setPriorities: [
          { arn: 'r2', priority: 1 },
          { arn: 'r1', priority: STALE_PRIORITY_CEILING },
        ],
        modify: [],
        create: [],
        delete: ['r1'],
        keep: [{ arn: 'r2', desired: d('A', 1) }],
        unchanged: 0,
      },
    },
    {
      name: 'pushed priorities skip the ones created rules take',
      desired: [d('B', 1), d('N', STALE_PRIORITY_CEILING)],
      actual: [a('r1', 'A', 1), a('r2', 'B', 2)],
      expected: {
        setPriorities: [
          { arn: 'r2', priority: 1 },
          { arn: 'r1', priority: STALE_PRIORITY_CEILING - 1 },
        ],
        modify: [],
        create: [d('N', STALE_PRIORITY_CEILING)],
        delete: ['r1'],
        keep: [{ arn: 'r2', desired: d('B', 1) }],
        unchanged: 0,
      },
    },
    {
      name: 'rules with the same settings: each keeps the one already at its priority, nothing moves',
      desired: [
        { id: 'x', settings: 'A', priority: 1 },
        { id: 'y', settings: 'A', priority: 2 },
      ],
      actual: [a('r2', 'A', 2), a('r1', 'A', 1)],
      expected: {
        setPriorities: [],
        modify: [],
        create: [],
        delete: [],
        keep: [
          { arn: 'r1', desired: { id: 'x', settings: 'A', priority: 1 } },
          { arn: 'r2', desired: { id: 'y', settings: 'A', priority: 2 } },
        ],
        unchanged: 2,
      },
    },
  ])('$name', ({ desired, actual, expected }) => {
    expect(planRules(desired, actual)).toStrictEqual(expected);
  });
});

describe('Function: diffTargets', () => {
  it.each([
    {
      name: 'register new, deregister gone, keep AWS-assigned zones',
      desired: [
        { id: '10.0.0.1', port: 80 },
        { id: '10.0.0.2', port: 80 },
      ],
      actual: [
        { Id: '10.0.0.1', Port: 80, AvailabilityZone: 'eu-west-1a' },
        { Id: '10.0.0.3', Port: 80 },
      ],
      expected: {
        rezone: [],
        register: [{ Id: '10.0.0.2', Port: 80 }],
        deregister: [{ Id: '10.0.0.3', Port: 80, AvailabilityZone: undefined }],
      },
    },
    {
      name: 'a port change is a new target',
      desired: [{ id: '10.0.0.1', port: 81 }],
      actual: [{ Id: '10.0.0.1', Port: 80 }],
      expected: {
        rezone: [],
        register: [{ Id: '10.0.0.1', Port: 81 }],
        deregister: [{ Id: '10.0.0.1', Port: 80, AvailabilityZone: undefined }],
      },
    },
    {
      name: 'an off-VPC target registered without zone all is re-registered',
      desired: [{ id: '172.20.0.1', port: 80, availabilityZone: 'all' as const }],
      actual: [{ Id: '172.20.0.1', Port: 80, AvailabilityZone: 'eu-west-1a' }],
      expected: {
        rezone: [{ Id: '172.20.0.1', Port: 80, AvailabilityZone: 'eu-west-1a' }],
        register: [{ Id: '172.20.0.1', Port: 80, AvailabilityZone: 'all' }],
        deregister: [],
      },
    },
  ])('$name', ({ desired, actual, expected }) => {
    expect(diffTargets(desired, actual)).toStrictEqual(expected);
  });
});
