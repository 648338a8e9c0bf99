/**
 * `npm start` runs the functions in its own process, so their structured log lines (JSON, one per
 * line, written by Powertools to stdout/stderr) pass through here: the narrator tells the ones it
 * understands in words and decides which of the rest are printed as they are.
 */
type Write = typeof process.stdout.write;

export type LogDecision = 'print' | 'drop';

/** Routes every JSON log line written to the streams through `decide`; returns the undo. */
export function tapJsonLogs(
  decide: (entry: Record<string, unknown>) => LogDecision,
  streams: NodeJS.WriteStream[] = [process.stdout, process.stderr],
): () => void {
  const restores = streams.map((stream) => {
    const original: Write = stream.write.bind(stream) as Write;
    let partial = '';
    const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      const done = typeof encoding === 'function' ? encoding : callback;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      const kept = lines.filter((line) => decideLine(line, decide) === 'print');
      const out = kept.length > 0 ? `${kept.join('\n')}\n` : '';
      if (out) return original(out, done as () => void);
      if (typeof done === 'function') (done as () => void)();
      return true;
    };
    stream.write = write as Write;
    return () => {
      stream.write = original;
      if (partial) original(partial);
    };
  });
  return () => {
    for (const restore of restores) restore();
  };
}

function decideLine(line: string, decide: (entry: Record<string, unknown>) => LogDecision): LogDecision {
  if (!line.startsWith('{')) return 'print';
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return 'print';
  }
  if (entry === null || typeof entry !== 'object' || !('level' in entry) || !('message' in entry)) {
    return 'print';
  }
  return decide(entry as Record<string, unknown>);
}
