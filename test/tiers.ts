/**
 * Which tier each test file is in (vitest.config.ts makes a project of each), by what it touches
 * rather than by folder:
 *
 * - `unit`: pure code (model, planners, decisions, validators, parsers) and reads of the
 *   repository's own files (golden fixtures, CRDs, serverless.yml); no socket, no process, no
 *   temporary file.
 * - `component`: in process, no network: the provider against the simulators' state through the
 *   real SDK clients with the in-process transport (dev/shared/in-process.ts: the SDK's request
 *   handed to the simulator's own listener, no socket), over MemoryKube or the Kubernetes API
 *   stand-in in process (client-node's requests handed to its listener the same way); and the
 *   few tests that write temporary files.
 * - `system`: everything else: HTTP simulators and their self-tests, the Kubernetes API stand-in over HTTP,
 *   bundles and packaging, spawned CLIs, kubectl, Chromium, the chaos smoke run, the moto
 *   conformance suite.
 *
 * A new file in test/unit is a unit test unless it is listed below; anywhere else it is a system
 * test until it is listed here as a unit or a component one.
 */

import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

/** test/unit files that open a socket: an HTTP server to talk to. */
const UNIT_WITH_SOCKETS = [
  'test/unit/forwarder-kube-api.test.ts',
  'test/unit/forwarder-sinks.test.ts',
  'test/unit/forwarder-sqs.test.ts',
];

/** test/unit files (and one elsewhere) that write temporary files. */
const UNIT_WITH_FILES = [
  'test/security/iam-policy-pins.test.ts',
  'test/unit/fake-provider.test.ts',
  'test/unit/package-checks.test.ts',
  'test/unit/registry.test.ts',
];

/**
 * Outside test/unit, the pure ones: tag rules, kubeconfig parsing, the IAM policies serverless.yml
 * states and their evaluation, the admission policies, the lock file's sources, the local tools'
 * call descriptions and narration.
 */
const UNIT_ELSEWHERE = [
  'test/dev/narration.test.ts',
  'test/dev/plan-describe.test.ts',
  'test/security/admission-policies.test.ts',
  'test/security/iam-eval.test.ts',
  'test/security/iam-ga-only-when-configured.test.ts',
  'test/security/iam-security-group-vpc.test.ts',
  'test/security/iam-tag-on-create-takeover.test.ts',
  'test/security/iam-untag-ownership.test.ts',
  'test/security/iam.test.ts',
  'test/security/kubeconfig.test.ts',
  'test/security/supply-chain.test.ts',
  'test/security/tags.test.ts',
];

/** The AWS provider against the ELBv2 (and EC2, WAFv2, Shield, ACM) simulators in process. */
const COMPONENT = [
  'test/integration/aws-alb-faults.test.ts',
  'test/integration/aws-alb-lost.test.ts',
  'test/integration/aws-alb.test.ts',
  'test/integration/aws-annotations.test.ts',
  'test/integration/aws-auth.test.ts',
  'test/integration/aws-backends.test.ts',
  'test/integration/aws-cluster-weights.test.ts',
  'test/integration/aws-deploy.test.ts',
  'test/integration/aws-drift.test.ts',
  'test/integration/aws-edge.test.ts',
  'test/integration/aws-frontend-nlb.test.ts',
  'test/integration/aws-limits.test.ts',
  'test/integration/aws-listener-surface.test.ts',
  'test/integration/aws-nlb-keys.test.ts',
  'test/integration/aws-nlb-security-groups.test.ts',
  'test/integration/aws-nlb.test.ts',
  'test/integration/aws-routing.test.ts',
  'test/integration/aws-security-groups.test.ts',
  'test/integration/aws-subnet-discovery.test.ts',
  'test/integration/aws-sweep.test.ts',
  'test/integration/aws-tags.test.ts',
  'test/integration/aws-targets-only.test.ts',
  'test/integration/aws-vpc-network.test.ts',
];

/**
 * The reconcilers and the runtime (processBatch, every controller) over the Kubernetes API
 * stand-in in process (test/support/harness.ts `inProcess`: client-node's requests handed to the
 * stand-in's request listener, no socket), with the fake provider, or with the AWS provider as
 * its factory builds it over the simulators in process (test/support/aws-in-process.ts): Regions,
 * the accelerator, the edge, ingress groups, the resync.
 */
const COMPONENT_KUBE = [
  'test/integration/aws-accelerator-e2e.test.ts',
  'test/integration/aws-accelerator-regions.test.ts',
  'test/integration/aws-edge-e2e.test.ts',
  'test/integration/aws-frontend-nlb-group.test.ts',
  'test/integration/aws-ingress-groups-namespaces.test.ts',
  'test/integration/aws-ingress-groups.test.ts',
  'test/integration/aws-lifecycle.test.ts',
  'test/integration/aws-placement-weights.test.ts',
  'test/integration/aws-regions.test.ts',
  'test/integration/aws-target-records.test.ts',
  'test/integration/aws-throttle.test.ts',
  'test/integration/kube-refreshing-client.test.ts',
  'test/integration/lifecycle.test.ts',
  'test/integration/maintenance.test.ts',
  'test/integration/next-steps.test.ts',
  'test/integration/reconcile-crd-installation.test.ts',
  'test/integration/reconcile-ingress-class.test.ts',
  'test/integration/reconcile-lifecycle.test.ts',
  'test/integration/reconcile-lock.test.ts',
  'test/integration/reconcile-mci.test.ts',
  'test/integration/reconcile-mcs.test.ts',
  'test/integration/reconcile-route.test.ts',
  'test/integration/reconcile-run.test.ts',
  'test/integration/reconcile-service-export-outcomes.test.ts',
  'test/integration/reconcile-service-export-triggers.test.ts',
  'test/integration/reconcile-service-export.test.ts',
  'test/integration/reconcile-service-locations-outcomes.test.ts',
  'test/integration/reconcile-service-locations.test.ts',
  'test/integration/reconcile-traffic-block.test.ts',
  'test/integration/resync-pass.test.ts',
  'test/integration/topology-regions.test.ts',
  'test/security/accelerator-records.test.ts',
  'test/security/conflict-events.test.ts',
  'test/security/endpoint-slices.test.ts',
  'test/security/global-accelerator-exposure.test.ts',
  'test/security/imported-slices-forged.test.ts',
  'test/security/ingress-group-members.test.ts',
  'test/security/namespaces.test.ts',
  'test/security/oidc-endpoints.test.ts',
  'test/security/placeholders.test.ts',
  'test/security/rbac.test.ts',
  'test/security/tenant-policy-closed-default.test.ts',
  'test/security/tenant-policy.test.ts',
  'test/security/two-deployments.test.ts',
  'test/security/two-tenants.test.ts',
];

/**
 * System tests that need a module graph of their own (vitest's default isolation): they load the
 * functions' handlers (which keep their runtime in module state), count metrics, mock a module,
 * or set the environment a function reads; and the spawned, browser and chaos runs, whose few
 * seconds of imports are nothing to theirs. The other system files share their worker's modules
 * (`isolate: false`), as the unit and component tiers do: a file no longer pays seconds of imports
 * (the SDK, client-node) that the previous file in its worker already paid.
 */
const SYSTEM_ISOLATED_DIRS = ['test/chaos/', 'test/corpus/', 'test/e2e/', 'test/functions/', 'test/infra/'];
const SYSTEM_ISOLATED = [
  'test/integration/metrics.test.ts',
  'test/integration/next-steps-unloadable.test.ts',
  'test/security/entry-points.test.ts',
  'test/security/function-roles.test.ts',
  // The functions' Lambda runtime, configured through the environment, imported afresh.
  'test/security/functions-token.test.ts',
  'test/security/logs.test.ts',
];

/** The vitest projects: the three tiers, the system one in two parts (see SYSTEM_ISOLATED). */
export type Tier = 'unit' | 'component' | 'system' | 'system-isolated';

/** A test file's tier, by its path from the repository root (`test/unit/yaml.test.ts`). */
export function tierOf(file: string): Tier {
  if (UNIT_WITH_SOCKETS.includes(file)) return 'system';
  if (UNIT_WITH_FILES.includes(file) || COMPONENT.includes(file) || COMPONENT_KUBE.includes(file))
    return 'component';
  if (file.startsWith('test/unit/') || UNIT_ELSEWHERE.includes(file)) return 'unit';
  if (SYSTEM_ISOLATED.includes(file) || SYSTEM_ISOLATED_DIRS.some((d) => file.startsWith(d)))
    return 'system-isolated';
  return 'system';
}

/** Every test file under test/, from the repository root. */
export function testFiles(root: string): string[] {
  return (readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => f.endsWith('.test.ts') && !f.split(sep).includes('node_modules'))
    .map((f) => `test/${f.split(sep).join('/')}`)
    .sort();
}

/** The files of a tier: what its vitest project includes. */
export function filesOf(tier: Tier, root: string): string[] {
  return testFiles(root).filter((f) => tierOf(f) === tier);
}
