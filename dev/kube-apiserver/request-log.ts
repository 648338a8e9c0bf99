export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  /** Request Content-Type, when the request had one. */
  contentType?: string;
  status: number;
  at: number;
  /** Who sent it (authentication's username), once authenticated. */
  user?: string;
}

/** Every request the server answered, for benchmarks and tests that count API calls. */
export class RequestLog {
  readonly entries: RequestRecord[] = [];

  add(record: RequestRecord): void {
    this.entries.push(record);
  }

  /** Requests whose method matches (if given) and whose path starts with `pathPrefix` (if given). */
  count(method?: string, pathPrefix?: string): number {
    return this.entries.filter(
      (e) => (!method || e.method === method) && (!pathPrefix || e.path.startsWith(pathPrefix)),
    ).length;
  }

  /** `"GET /api/v1/namespaces/default/services"` → count. */
  counts(): Map<string, number> {
    const out = new Map<string, number>();
    for (const e of this.entries) {
      const k = `${e.method} ${e.path}`;
      out.set(k, (out.get(k) ?? 0) + 1);
    }
    return out;
  }

  reset(): void {
    this.entries.length = 0;
  }
}
