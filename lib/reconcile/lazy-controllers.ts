/**
 * The controllers other than the MultiClusterIngress's: loaded together by run.ts at the first
 * request for any of them, so in the function bundles they are one chunk outside the start set.
 * Endpoint churn, the most frequent notification, only ever asks for the MCI's controller; these
 * run where there are MultiClusterServices, on a change of the objects they follow and on a
 * resync. Their triggers are not here (dependents.ts and the *-triggers.ts modules): every
 * notification is routed. One chunk rather than four: each lazily loaded module adds to the chunks
 * esbuild makes of the code it shares with the start set.
 */
// Costs nothing at run time: this module is loaded by run.ts for processBatch (runtime/process.ts),
// so both are loaded already. It tells esbuild so: a lazily loaded module that shares only part of
// a chunk of the start set splits it in two, and every extra file costs a cold start its own load
// (see lib/providers/aws/deploy/full-path.ts and bench/README.md).
import '../runtime/process.js';

export { reconcileCrdInstallation } from './crd-installation.js';
export { reconcileMultiClusterService } from './mcs.js';
export { reconcileServiceExport } from './service-export.js';
export { reconcileServiceLocations } from './service-locations.js';
