import type { Measurement } from './load.js';

export type Row = { readonly m: Measurement; readonly baseline?: Measurement };

/** A result that is not a request rate: a latency, a memory size, a start-up time. */
export type Figure = {
  readonly name: string;
  readonly value: string;
  /** The goal it is held against, e.g. `p99 < 50 ms`. */
  readonly target?: string;
  /** Whether the goal is met (undefined: no goal). */
  readonly met?: boolean;
  readonly note?: string;
};

const pad = (cells: readonly string[], widths: readonly number[]): string =>
  cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd();

/** Two decimals, three below 0.1 (a write rate is a small fraction of a bare server's reads). */
const ratio = (row: Row): string => {
  if (!row.baseline) return 'baseline';
  const r = row.m.rps / Math.max(row.baseline.rps, 1e-9);
  return `${r.toFixed(r < 0.1 ? 3 : 2)}x bare http`;
};

function grid(header: readonly string[], body: readonly (readonly string[])[], align: (cells: readonly string[], widths: readonly number[]) => string): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [align(header, widths), rule, ...body.map((cells) => align(cells, widths))].join('\n');
}

/** The results as a fixed-width text table. */
export function table(rows: readonly Row[]): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'non-2xx', 'vs baseline'];
  const body = rows.map((row) => [
    row.m.name,
    row.m.rps.toFixed(0),
    row.m.p50.toFixed(2),
    row.m.p99.toFixed(2),
    String(row.m.requests),
    String(row.m.errors),
    row.m.non2xx === 0 ? '0' : `${row.m.non2xx} ${JSON.stringify(Object.fromEntries(Object.entries(row.m.statusCodes).filter(([code]) => !code.startsWith('2'))))}`,
    ratio(row),
  ]);
  return grid(header, body, pad);
}

const left = (cells: readonly string[], widths: readonly number[]): string => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();

/** The other results (latencies, memory, start-up) with their goals. */
export function figureTable(figures: readonly Figure[]): string {
  const header = ['measurement', 'value', 'target', 'met', 'note'];
  const body = figures.map((f) => [f.name, f.value, f.target ?? '', f.met === undefined ? '' : f.met ? 'yes' : 'NO', f.note ?? '']);
  return grid(header, body, left);
}
