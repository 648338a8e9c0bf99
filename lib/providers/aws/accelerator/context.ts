/**
 * What Global Accelerator's plan and apply (reconcile.ts) and the record's check (record-check.ts)
 * are given for one stack: a leaf, so that neither imports the other for it.
 */
import type { Logger } from '../../../log/logger.js';
import type { StackOwner } from '../tagging.js';
import type { GaApi } from './ga-api.js';
import type { AcceleratorRecordStore } from './record.js';

export interface AcceleratorContext {
  /** The GA API, its client loaded at the first call (lazy-parts.ts). */
  ga(): Promise<GaApi>;
  records: AcceleratorRecordStore;
  owner: StackOwner;
  signal: AbortSignal;
  logger: Logger;
  defaultTags: Readonly<Record<string, string>>;
  externalManagedTags: readonly string[];
  dryRun: boolean;
  /** Read GA instead of trusting the record (the periodic resync's drift check). */
  resync: boolean;
  /** How soon a reconcile waiting on GA comes back (globalAccelerator.pollSeconds). */
  pollSeconds: number;
  now?: () => Date;
  /** A Warning Event on the object (a record that was not trusted: record-check.ts). */
  announce?: (reason: string, message: string) => Promise<void>;
}
