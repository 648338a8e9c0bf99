/**
 * Where the fake provider keeps its load balancers: in memory, or in a JSON file so that separate
 * local invocations (each a new process) see each other's. File writes go through a temporary
 * file and a rename, so a reader never sees half a state.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface BalancerRecord {
  name: string;
  namespace: string;
  /** The object as last ensured or updated (upstream's bug, not persisting updates, is fixed). */
  object: unknown;
  /** Backend Service names of a MultiClusterIngress. */
  services?: string[];
  /** Its address, kept from its creation (absent in state from before: upstream's 1.2.3.4). */
  address?: string;
  /** When the load balancer was created (RFC 3339). */
  createdAt?: string;
}

export interface FakeState {
  mci: Record<string, BalancerRecord>;
  mcs: Record<string, BalancerRecord>;
}

export interface StateStore {
  read(): Promise<FakeState>;
  write(state: FakeState): Promise<void>;
}

export function memoryStore(): StateStore {
  let state: FakeState = { mci: {}, mcs: {} };
  return {
    async read() {
      return structuredClone(state);
    },
    async write(next) {
      state = structuredClone(next);
    },
  };
}

export function fileStore(path: string): StateStore {
  return {
    async read() {
      try {
        const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<FakeState>;
        return { mci: parsed.mci ?? {}, mcs: parsed.mcs ?? {} };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { mci: {}, mcs: {} };
        throw new Error(`fake provider state file "${path}" is unreadable: ${(err as Error).message}`);
      }
    },
    async write(state) {
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(state, null, 2));
      await rename(tmp, path);
    },
  };
}
