import type { Measurement } from './load.js';

export type Row = { readonly m: Measurement; readonly baseline?: Measurement };

const pad = (cells: readonly string[], widths: readonly number[]): string =>
  cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ').trimEnd();

const ratio = (row: Row): string => (row.baseline ? `${(row.m.rps / Math.max(row.baseline.rps, 1e-9)).toFixed(2)}x bare http` : 'baseline');

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
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [pad(header, widths), rule, ...body.map((cells) => pad(cells, widths))].join('\n');
}
