/** One benchmark figure: what was measured, against which target, compared with which anchor. */
export interface Figure {
  group: string;
  name: string;
  value: number | string;
  unit: string;
  /** Human-readable target, e.g. "≤ 300 ms". */
  target?: string;
  /** Whether the value meets the target (undefined when there is no target). */
  met?: boolean;
  /** What the figure is compared with (a bare bundle, AWS Load Balancer Controller...). */
  anchor?: string;
}

export function formatValue(v: number | string): string {
  if (typeof v === 'string') return v;
  if (Number.isInteger(v)) return String(v);
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

export function markdownTable(figures: Figure[]): string {
  const rows = figures.map((f) => [
    f.group,
    f.name,
    `${formatValue(f.value)} ${f.unit}`.trim(),
    f.target ?? '',
    f.met === undefined ? '' : f.met ? 'met' : 'NOT met',
    f.anchor ?? '',
  ]);
  const header = ['area', 'figure', 'value', 'target', 'status', 'anchor'];
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function consoleTable(figures: Figure[]): string {
  const rows = [
    ['area', 'figure', 'value', 'target', 'status'],
    ...figures.map((f) => [
      f.group,
      f.name,
      `${formatValue(f.value)} ${f.unit}`.trim(),
      f.target ?? '',
      f.met === undefined ? '' : f.met ? 'met' : 'NOT met',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
