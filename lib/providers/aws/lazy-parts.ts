/**
 * The parts of the aws provider only some reconciles run, each loaded at its first use
 * (lib/util/lazy.ts): a chunk of its own in the function bundles, outside what a container loads
 * at its start (bench/bundles.ts measures that; test/infra/bundle-start-set.test.ts keeps it so).
 * If a chunk cannot be loaded, the reconcile that needed it fails with a ModuleLoadError naming
 * it, reported like any failed reconcile (log line, Event, condition), and the next one tries again.
 */
import { lazy } from '../../util/lazy.js';

/** A change, a drift check, a first create, a deletion, the orphan sweep (deploy/full-path.ts). */
export const loadFullPath = lazy(
  () => import('./deploy/full-path.js'),
  "the aws provider's full deploy path (deploy/full-path.ts)",
);

/**
 * The EC2 client and the VPC reads (ec2/vpc-reader.ts): about 1 MiB of bundle, loaded by the first
 * reconcile of a container whose configuration does not list the VPC's CIDRs, then cached.
 */
export const loadEc2 = lazy(
  () => import('./ec2/vpc-reader.js'),
  "the aws provider's EC2 client (ec2/vpc-reader.ts)",
);

/** The WAFv2 client (edge/wafv2-client.ts): loaded by the first stack that names a web ACL or had one. */
export const loadWafv2 = lazy(
  () => import('./edge/wafv2-client.js'),
  "the aws provider's WAFv2 client (edge/wafv2-client.ts)",
);

/** The Shield client (edge/shield-client.ts): loaded by the first stack that asks for protection or had one. */
export const loadShield = lazy(
  () => import('./edge/shield-client.js'),
  "the aws provider's Shield client (edge/shield-client.ts)",
);

/** The ACM client (edge/acm-client.ts): loaded by the first stack whose HTTPS listeners have no certificate-arn. */
export const loadAcm = lazy(
  () => import('./edge/acm-client.js'),
  "the aws provider's ACM client (edge/acm-client.ts)",
);

/**
 * The Global Accelerator client (accelerator/ga-client.ts): loaded by the first stack that wants,
 * or had, an accelerator and has to call GA (a no-op reconcile reads the accelerator record only).
 */
export const loadGlobalAccelerator = lazy(
  () => import('./accelerator/ga-client.js'),
  "the aws provider's Global Accelerator client (accelerator/ga-client.ts)",
);

/**
 * Global Accelerator's plan and apply (accelerator/reconcile.ts): only a stack with an accelerator
 * intent, a deletion that finds an accelerator record (or GA configured), and the sweep need them.
 */
export const loadAcceleratorReconcile = lazy(
  () => import('./accelerator/reconcile.js'),
  "the aws provider's Global Accelerator plan and apply (accelerator/reconcile.ts)",
);

/** IngressGroups (ingress-groups-part.ts): only an MCI that is, or was, in a group needs them. */
export const loadIngressGroups = lazy(
  () => import('./ingress-groups-part.js'),
  "the aws provider's IngressGroups (ingress-groups-part.ts)",
);

/**
 * The managed security groups' EC2 calls (ec2/security-groups.ts) with the EC2 client: loaded by
 * the first deploy, deletion or sweep that meets a managed group, never by a stack without one.
 */
export const loadSecurityGroups = lazy(
  () => import('./ec2/security-groups.js'),
  "the aws provider's security groups (ec2/security-groups.ts)",
);
