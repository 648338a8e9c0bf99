/**
 * The controllers other than the MultiClusterIngress's: loaded together by run.ts at the first
 * request for any of them, so in the function bundles they are one chunk outside the start set.
 * Endpoint churn, the most frequent notification, only ever asks for the MCI's controller; these
 * run where there are MultiClusterServices, on a change of the objects they follow and on a
 * resync. Their triggers are not here (dependents.ts and the *-triggers.ts modules): every
 * notification is routed. One chunk rather than four: each lazily loaded module splits the code it
 * shares with the start set into chunks of their own, and every chunk costs its own header.
 */
export { reconcileCrdInstallation } from './crd-installation.js';
export { reconcileMultiClusterService } from './mcs.js';
export { reconcileServiceExport } from './service-export.js';
export { reconcileServiceLocations } from './service-locations.js';
