/**
 * Reads CloudWatch Embedded Metric Format lines back from what a process wrote to stdout, and
 * finds one metric's value by its dimensions: what CloudWatch Logs would extract.
 */
export interface EmfLine {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: Array<{
      Namespace: string;
      Dimensions: string[][];
      Metrics: Array<{ Name: string; Unit: string }>;
    }>;
  };
  [key: string]: unknown;
}

/** Every EMF line in the written chunks (other output is skipped). */
export function emfLines(chunks: string[]): EmfLine[] {
  return chunks
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{') && l.includes('"_aws"'))
    .map((l) => JSON.parse(l) as EmfLine);
}

/**
 * The line that publishes `name` under exactly the dimension set `dimensions` (plus `service`),
 * with its value. Throws when there is none, or more than one.
 */
export function metric(
  lines: EmfLine[],
  name: string,
  dimensions: Record<string, string>,
): { value: unknown; line: EmfLine } {
  const wanted = ['service', ...Object.keys(dimensions)].sort().join(',');
  const found = lines.filter((line) => {
    const directive = line._aws.CloudWatchMetrics[0];
    if (!directive?.Metrics.some((m) => m.Name === name)) return false;
    if (!directive.Dimensions.some((set) => [...set].sort().join(',') === wanted)) return false;
    return Object.entries(dimensions).every(([k, v]) => line[k] === v);
  });
  if (found.length !== 1) {
    throw new Error(
      `expected one EMF line for ${name} ${JSON.stringify(dimensions)}, found ${found.length} in:\n` +
        lines.map((l) => JSON.stringify(l)).join('\n'),
    );
  }
  return { value: found[0]![name], line: found[0]! };
}
