// What a slow visibility sample waited for (docs/decisions/0275):
//   npx tsx infra/bench/visibility-report.ts SAMPLES.jsonl STAGES.jsonl
// SAMPLES is what BENCH_VISIBILITY_TRACE wrote, STAGES what the service wrote with CMS_STAGE_TRACE
// in the same run. For the samples taken beside the writers, it prints how their time splits
// between the create's answer and the polls after it, then, for the slowest 1% and for the
// middle ones, what the service was doing inside their windows (stage time overlapping them).
import { readFileSync } from 'node:fs';

type Sample = { at: number; created: number; polls: number[]; ms: number; phase: string };
type Mark = { stage: string; at: number; ms: number; n?: number };

/** The file's JSON lines; a line cut short (a service stopped while it wrote its trace) is left out. */
const lines = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as T];
      } catch {
        return [];
      }
    });

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

const [samplesFile, stagesFile] = process.argv.slice(2);
if (!samplesFile || !stagesFile) throw new Error('usage: visibility-report.ts SAMPLES.jsonl STAGES.jsonl');
const samples = lines<Sample>(samplesFile);
const marks = lines<Mark>(stagesFile).filter((m) => m.stage !== 'loop-delay-summary');

/** Stage time (ms) overlapping [from, to), the longest one, and how many, per stage name. */
function inside(from: number, to: number): Map<string, { ms: number; longest: number; count: number; n: number }> {
  const out = new Map<string, { ms: number; longest: number; count: number; n: number }>();
  for (const m of marks) {
    const overlap = Math.min(to, m.at + m.ms) - Math.max(from, m.at);
    if (overlap <= 0 && !(m.ms === 0 && m.at >= from && m.at < to)) continue;
    const name = m.stage === 'gc' ? `gc(kind ${m.n})` : m.stage;
    const row = out.get(name) ?? { ms: 0, longest: 0, count: 0, n: 0 };
    row.ms += Math.max(0, overlap);
    row.longest = Math.max(row.longest, m.ms);
    row.count += 1;
    row.n += m.stage === 'gc' ? 0 : (m.n ?? 0);
    out.set(name, row);
  }
  return out;
}

function describe(title: string, group: Sample[]): void {
  const totals = new Map<string, { ms: number; longest: number; count: number; n: number }>();
  for (const s of group) {
    for (const [name, row] of inside(s.at, s.at + s.ms)) {
      const t = totals.get(name) ?? { ms: 0, longest: 0, count: 0, n: 0 };
      t.ms += row.ms;
      t.longest = Math.max(t.longest, row.longest);
      t.count += row.count;
      t.n += row.n;
      totals.set(name, t);
    }
  }
  const k = Math.max(group.length, 1);
  const avg = (f: (s: Sample) => number) => (group.reduce((sum, s) => sum + f(s), 0) / k).toFixed(1);
  console.log(`\n${title}: ${group.length} samples, mean ${avg((s) => s.ms)} ms = create answered ${avg((s) => s.created)} ms + polls ${avg((s) => s.ms - s.created)} ms (${avg((s) => s.polls.length)} polls)`);
  console.log('  stage                      ms inside a sample (mean)  longest one  count per sample  size per mark');
  for (const [name, t] of [...totals].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`  ${name.padEnd(26)} ${(t.ms / k).toFixed(1).padStart(25)}  ${t.longest.toFixed(1).padStart(11)}  ${(t.count / k).toFixed(1).padStart(16)}  ${(t.n / Math.max(t.count, 1)).toFixed(1).padStart(13)}`);
  }
}

for (const phase of ['idle', 'busy']) {
  const group = samples.filter((s) => s.phase === phase);
  if (group.length === 0) continue;
  const ms = group.map((s) => s.ms);
  const p99 = quantile(ms, 0.99);
  console.log(`\n== ${phase}: ${group.length} samples, p50 ${quantile(ms, 0.5).toFixed(1)} / p90 ${quantile(ms, 0.9).toFixed(1)} / p99 ${p99.toFixed(1)} ms`);
  console.log(`create answered p50 ${quantile(group.map((s) => s.created), 0.5).toFixed(1)} / p99 ${quantile(group.map((s) => s.created), 0.99).toFixed(1)} ms; after it p50 ${quantile(group.map((s) => s.ms - s.created), 0.5).toFixed(1)} / p99 ${quantile(group.map((s) => s.ms - s.created), 0.99).toFixed(1)} ms`);
  describe(`slowest 1% (>= p99)`, group.filter((s) => s.ms >= p99));
  const p45 = quantile(ms, 0.45);
  const p55 = quantile(ms, 0.55);
  describe('middle (p45 to p55)', group.filter((s) => s.ms >= p45 && s.ms <= p55));
}

// The stages themselves over the whole run, beside the writers or not.
console.log('\nstage over the whole trace: count, p50 / p99 / max ms, mean size');
const byStage = new Map<string, Mark[]>();
for (const m of marks) {
  const list = byStage.get(m.stage) ?? [];
  list.push(m);
  byStage.set(m.stage, list);
}
for (const [stage, list] of byStage) {
  const ms = list.map((m) => m.ms);
  const n = list.reduce((sum, m) => sum + (m.n ?? 0), 0) / list.length;
  console.log(`  ${stage.padEnd(26)} ${String(list.length).padStart(7)}  ${quantile(ms, 0.5).toFixed(2)} / ${quantile(ms, 0.99).toFixed(2)} / ${Math.max(...ms).toFixed(1)}  ${n.toFixed(1)}`);
}
