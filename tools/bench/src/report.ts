import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname } from 'node:path';

/** One measured value of a row. */
export type Cell = { label: string; value: number; unit: string };

/** One line of the table. */
export type Row = {
  /** Stable id, e.g. `validate.lenient`, `getAccount.prerendered`. */
  id: string;
  /** The item of issue 8 the row answers (`1` ... `5`). */
  group: string;
  name: string;
  a: Cell;
  b: Cell;
  /** The row's ratio; what it means is in `ratioMeaning`. */
  ratio: number;
  /** Interquartile range of the per-round ratios (how much the rounds spread). */
  spread?: [number, number];
  /** 95% confidence interval of `ratio` (how far the estimate itself may be off). */
  ci?: [number, number];
  ratioMeaning: string;
  /** A row without a target is reported for information. */
  target?: { op: '<=' | '>='; value: number; on?: 'ratio' } | { op: '<='; a: number; b: number; on: 'values' };
  note?: string;
  /** HTTP rows: CPU time of the bench process (the client side) per unit, and client / raw. */
  cpu?: { raw: number; client: number; unit: string; ratio: number };
  samples?: unknown;
};

export type Verdict = 'pass' | 'MISS' | 'info';

export function verdictOf(row: Row): Verdict {
  const t = row.target;
  if (!t) return 'info';
  if (t.on === 'values') return row.a.value <= t.a && row.b.value <= t.b ? 'pass' : 'MISS';
  return (t.op === '<=' ? row.ratio <= t.value : row.ratio >= t.value) ? 'pass' : 'MISS';
}

/** A ratio target inside the row's confidence interval: this run cannot tell pass from miss. */
export function withinNoise(row: Row): boolean {
  const t = row.target;
  return t !== undefined && t.on !== 'values' && row.ci !== undefined && row.ci[0] < t.value && t.value < row.ci[1];
}

function targetText(row: Row): string {
  const t = row.target;
  if (!t) return '-';
  if (t.on === 'values') return `A <= ${fmt(t.a, row.a.unit)}, B <= ${fmt(t.b, row.b.unit)}`;
  return `${t.op} ${t.value}`;
}

function fmt(value: number, unit: string): string {
  if (!Number.isFinite(value)) return String(value);
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
}

export type Environment = { node: string; platform: string; cpu: string; cpus: number; date: string; argv: string[] };

export function environment(): Environment {
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cpus: availableParallelism(),
    date: new Date().toISOString(),
    argv: process.argv.slice(2),
  };
}

/** The table as text: benchmark, A, B, ratio [95% confidence interval], target, verdict. */
export function table(rows: readonly Row[], env: Environment): string {
  const header = ['#', 'benchmark', 'A', 'B', 'ratio [95% CI]', 'target', 'verdict'];
  const lines = rows.map((r) => [
    r.group,
    r.name,
    `${r.a.label} ${fmt(r.a.value, r.a.unit)}`,
    `${r.b.label} ${fmt(r.b.value, r.b.unit)}`,
    r.ci ? `${r.ratio.toFixed(3)} [${r.ci[0].toFixed(3)}-${r.ci[1].toFixed(3)}]` : r.ratio.toFixed(3),
    targetText(r),
    verdictOf(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [
    `Node ${env.node}, ${env.platform}, ${env.cpus} CPUs (${env.cpu}), ${env.date}`,
    '',
    line(header),
    rule,
    ...lines.map(line),
  ].join('\n');
}

export function writeJson(file: string, env: Environment, rows: readonly Row[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const out = {
    environment: env,
    results: rows.map((r) => ({ ...r, verdict: verdictOf(r), withinNoise: withinNoise(r) })),
  };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
}
