// `npx tsx infra/bench/profile-summary.ts FILE.cpuprofile [N]`: the functions and the files
// with the most self time in a V8 CPU profile (as written by BENCH_CPU_PROF), N of each.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [file, top = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [N]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string): string => {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  return nm >= 0 ? path.slice(nm + 'node_modules/'.length) : path.startsWith('node:') ? path : relative(process.cwd(), path);
};
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
const functions = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, us] of self) {
  const frame = byId.get(id)?.callFrame;
  if (!frame) continue;
  add(functions, `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`, us);
  add(files, frame.url ? where(frame.url).replace(/^((?:@[^/]+\/)?[^/]+)\/.*/, (m, pkg: string) => (frame.url.includes('node_modules') ? pkg : m)) : '(native)', us);
}
const show = (title: string, map: Map<string, number>) => {
  process.stdout.write(`${title}\n`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`);
show('self time by function', functions);
show('self time by file or package', files);

// Inclusive time of our own functions: a sample counts for every distinct function on its stack.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    if (!frame?.url || frame.url.includes('node_modules') || !frame.url.startsWith('file://')) continue;
    seen.add(`${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`);
  }
  for (const key of seen) add(inclusive, key, us);
}
show('inclusive time of our functions', inclusive);
