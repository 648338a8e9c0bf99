import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ObjectStore, StoreSnapshot } from './store.js';

/**
 * Keeps the store in a JSON file so a local run can be stopped and resumed. Writes are debounced;
 * close() writes synchronously so nothing is lost on shutdown.
 */
export class Persistence {
  private timer: NodeJS.Timeout | undefined;
  private readonly unhook: () => void;

  constructor(
    private readonly file: string,
    private readonly store: ObjectStore,
    private readonly debounceMs: number,
  ) {
    this.unhook = store.onChange(() => this.schedule());
  }

  /** Loads the file if it exists; returns whether it did. */
  load(): boolean {
    if (!existsSync(this.file)) return false;
    const snapshot = JSON.parse(readFileSync(this.file, 'utf8')) as StoreSnapshot;
    this.store.load(snapshot);
    return true;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    mkdirSync(dirname(this.file), { recursive: true });
    // Write-then-rename so a crash mid-write never leaves a truncated state file.
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.store.snapshot(), null, 1));
    renameSync(tmp, this.file);
  }

  close(): void {
    this.unhook();
    this.flush();
  }
}
