/** The figures of one run, printed so a reader sees at a glance what was done and what broke. */
import type { InvariantReport } from './invariants.js';
import type { OpKind } from './workload.js';

export interface ChaosFigures {
  seed: number;
  profile: string;
  source: string;
  durationMs: number;
  /** Where the time went: setup, workload, quiesce, resync, sweep. */
  phasesMs: Record<string, number>;
  operations: number;
  operationsByKind: Partial<Record<OpKind, number>>;
  objects: { ingresses: number; services: number };
  faults: {
    elbv2: Record<string, number>;
    /** WAFv2 faults injected (at the ELBv2 rates). */
    wafv2: Record<string, number>;
    /** EC2 faults injected (the managed security groups' calls). */
    ec2: Record<string, number>;
    /** Global Accelerator faults injected (the accelerators' calls). */
    ga: Record<string, number>;
    kubeConflicts: number;
    notifications: { dropped: number; duplicated: number; delayed: number; reordered: number };
    kills: number;
  };
  retries: {
    /** Extra attempts the ELBv2 SDK made on its own. */
    sdk: number;
    /** Notifications the function did not accept and that were sent again. */
    redeliveries: number;
    /** Function invocations that answered with an error. */
    failedInvocations: number;
    /** Invocations that answered 202: nothing failed, some objects only waited. */
    waitingInvocations: number;
    /** Notifications the function took but wanted again later (waiting, not failing). */
    waited: number;
    invocations: number;
    /** The workload's own writes that met a 409 and were retried. */
    workloadConflicts: number;
    /** Recreations abandoned because the old object was still terminating (its deletion notification lost). */
    recreateTimeouts: number;
  };
  elbv2Calls: number;
  /** The ELBv2 calls of each Region's simulator. */
  elbv2CallsByRegion: Record<string, number>;
  ec2Calls: number;
  gaCalls: number;
  /** Accelerators deleted (each after its disable was deployed and its listeners were gone). */
  acceleratorsDeleted: number;
  /** DeleteSecurityGroup calls that met a DependencyViolation (a group still held), retried later. */
  securityGroupsHeld: number;
  /**
   * The resync: notifications the queue took (`sent`) or refused (`failed`), then what the
   * function did with them: reconciled, took to wait (sent again later), or did not accept.
   */
  resync: { sent: number; failed: number; delivered: number; waited: number; redelivered: number };
  /** Console edits the fingerprint cannot see, made before the resync (hand-drift.ts). */
  handDrift: string[];
  /** Divergences it added (findings not there before it), as the invariants saw them before the resync. */
  handDriftDiverged: number;
  sweep: { owned: number; deleted: string[]; errors: number };
  /** Whether the pipeline drained before each check point (false: checked anyway after the timeout). */
  drained: boolean;
  invariants: InvariantReport;
  /** The operations on each object a finding names, for replaying a failure by hand. */
  history: Record<string, string[]>;
  /** Where the function's time went, per phase (profiler.ts). */
  timeProfile: string[];
}

export function passed(f: ChaosFigures): boolean {
  const i = f.invariants;
  return i.leaked + i.missing + i.diverged + i.stuck + i.badStatus + i.lost + i.dangling === 0;
}

const fmt = (o: Record<string, number>) =>
  Object.entries(o)
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ') || '-';

export function formatFigures(f: ChaosFigures, maxFindings = 20): string {
  const i = f.invariants;
  const lines = [
    `chaos seed=${f.seed} profile=${f.profile} source=${f.source} ${(f.durationMs / 1000).toFixed(1)}s: ${passed(f) ? 'PASS' : 'FAIL'}`,
    `  time: ${Object.entries(f.phasesMs)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`)
      .join(', ')}`,
    `  operations ${f.operations} on ${f.objects.ingresses} MCI + ${f.objects.services} MCS slots: ${fmt(f.operationsByKind as Record<string, number>)}`,
    `  faults: elbv2 ${fmt(f.faults.elbv2)} | wafv2 ${fmt(f.faults.wafv2)} | ec2 ${fmt(f.faults.ec2)} | ga ${fmt(f.faults.ga)} | kube 409 ${f.faults.kubeConflicts} | notifications ${fmt(f.faults.notifications)} | kills ${f.faults.kills}`,
    `  retries: sdk ${f.retries.sdk} | redeliveries ${f.retries.redeliveries} | failed invocations ${f.retries.failedInvocations}/${f.retries.invocations} (waiting ${f.retries.waitingInvocations}, notifications waited ${f.retries.waited}) | workload 409 ${f.retries.workloadConflicts} | recreate timeouts ${f.retries.recreateTimeouts} | elbv2 calls ${f.elbv2Calls} (${fmt(f.elbv2CallsByRegion)}) | ec2 calls ${f.ec2Calls} (DependencyViolation ${f.securityGroupsHeld}) | ga calls ${f.gaCalls} (accelerators deleted ${f.acceleratorsDeleted})`,
    `  hand drift before the resync: ${f.handDrift.length ? `${f.handDrift.join(', ')} (${f.handDriftDiverged} new divergences until the resync)` : 'none'}`,
    `  resync sent ${f.resync.sent} failed ${f.resync.failed} (function: reconciled ${f.resync.delivered} waited ${f.resync.waited} not accepted ${f.resync.redelivered}) | sweep owned ${f.sweep.owned} deleted ${f.sweep.deleted.length}${f.sweep.deleted.length ? ` (${f.sweep.deleted.join(', ')})` : ''} errors ${f.sweep.errors} | drained ${f.drained}`,
    `  stacks expected ${i.expectedStacks} actual ${i.actualStacks} (managed security groups expected ${i.managedGroups}, accelerators expected ${i.accelerators.expected} actual ${i.accelerators.actual}) | leaked ${i.leaked} missing ${i.missing} diverged ${i.diverged} stuck ${i.stuck} bad status ${i.badStatus} lost ${i.lost} dangling forwards ${i.dangling}`,
  ];
  lines.push(...f.timeProfile);
  for (const x of i.findings.slice(0, maxFindings))
    lines.push(`    ${x.kind} ${x.subject}: ${x.detail.slice(0, 1500)}`);
  if (i.findings.length > maxFindings) lines.push(`    … ${i.findings.length - maxFindings} more`);
  for (const [subject, ops] of Object.entries(f.history))
    lines.push(`    history of ${subject}: ${ops.join(', ')}`);
  if (!passed(f)) lines.push(`  replay: npm run chaos -- --profile ${f.profile} --seed ${f.seed}`);
  return lines.join('\n');
}
