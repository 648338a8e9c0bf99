/**
 * What an operation does to its resource: a leaf, so that the accelerator's operations
 * (accelerator/types.ts) and the ELBv2 ones (operations.ts, which lists both) share it.
 */
export type OperationKind = 'create' | 'modify' | 'delete' | 'replace';
