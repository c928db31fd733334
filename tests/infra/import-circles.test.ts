import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['api', 'commands', 'domain', 'infra', 'projections', 'read-api', 'write-api'];
/** `import ... from './x.js'`, `export ... from`, `import('./x.js')`: type-only imports count too. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The project's own import graph: each source file and the source files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap((f) => sources(join(ROOT, f)))) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
    graph.set(relative(ROOT, file), [...new Set(targets.map((t) => relative(ROOT, t)))]);
  }
  return graph;
}

/** Strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the import graph', () => {
  it('has no circle: no source file imports one that imports it back, directly or through others', () => {
    const graph = importGraph();
    expect(graph.size).to.be.greaterThan(100);
    expect(circles(graph)).to.deep.equal([]);
  });

  it('keeps the two management sides apart: write-api imports nothing of read-api, read-api nothing of write-api', () => {
    const across = (file: string, target: string): boolean =>
      (file.startsWith('write-api/') && target.startsWith('read-api/')) || (file.startsWith('read-api/') && target.startsWith('write-api/'));
    const crossings = [...importGraph()].flatMap(([file, targets]) => targets.filter((t) => across(file, t)).map((t) => `${file} -> ${t}`));
    expect(crossings).to.deep.equal([]);
  });

  it('keeps the handlers free of the framework: no file of api/, read-api/ or write-api/ imports express (infra/http adapts them)', () => {
    const files = ['api', 'read-api', 'write-api'].flatMap((f) => sources(join(ROOT, f)));
    const framework = files.filter((file) => /\bfrom\s*['"]express['"]/.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(files.length).to.be.greaterThan(50);
    expect(framework).to.deep.equal([]);
  });

  it('finds a circle where there is one (the check itself)', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
    expect(circles(graph)).to.deep.equal([['a.ts', 'b.ts', 'c.ts']]);
  });
});
