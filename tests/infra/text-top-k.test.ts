import { expect } from 'chai';
import { seededRandom } from '../../infra/bench/seeded-random.js';
import { mayHold, type PrefixSize } from '../../infra/sqlite/text-impacts.js';
import { B, K1, TextMemoryIndex, idf } from '../../infra/sqlite/text-memory-index.js';
import { topK, type TopKQuery } from '../../infra/sqlite/text-top-k.js';
import { strongestFirst } from '../../infra/sqlite/text-top-k-seed.js';
import type { Scored } from '../../projections/search-ports.js';

type Row = { readonly field: string; readonly locale: string; readonly tokens: readonly string[] };
type Doc = { readonly scope: string; readonly key: string; readonly rows: readonly Row[] };

const WORDS = ['ash', 'birch', 'cedar', 'elm', 'fir', 'oak', 'pine', 'yew', 'larch', 'maple', 'beech', 'alder', 'aspen', 'holly', 'hazel', 'rowan'];
const SCOPES = ['e/a', 'e/b', 'f/a'];
const FIELDS = ['title', 'body'];
const LOCALES = ['', 'en', 'de'];

/**
 * Every document scored the slow way, as FTS5's bm25() scores each row (docs/decisions/0200):
 * the reference the top k must equal, whatever its prefixes, seeds and walks did.
 */
function everyDocument(docs: ReadonlyMap<number, Doc>, query: TopKQuery): Scored[] {
  let rows = 0;
  let tokens = 0;
  const df = new Map<string, number>();
  for (const doc of docs.values()) {
    for (const row of doc.rows) {
      rows += 1;
      tokens += row.tokens.length;
      for (const term of new Set(row.tokens)) df.set(term, (df.get(term) ?? 0) + 1);
    }
  }
  const average = tokens / rows;
  const hits: Scored[] = [];
  for (const [, doc] of [...docs].sort((a, b) => a[0] - b[0])) {
    if (doc.scope !== query.scope) continue;
    let total = 0;
    let any = false;
    for (const row of doc.rows) {
      if (!query.fields.includes(row.field) || (query.locale !== null && row.locale !== query.locale && row.locale !== '')) continue;
      let sum = 0;
      let matched = false;
      for (const term of query.terms) {
        const tf = row.tokens.filter((t) => t === term).length;
        if (tf === 0 || !df.get(term)) continue;
        matched = true;
        sum += idf(rows, df.get(term)!) * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + (B * row.tokens.length) / average)));
      }
      if (matched) {
        any = true;
        total += sum;
      }
    }
    if (any) hits.push({ key: doc.key, score: total });
  }
  return hits.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).slice(0, query.limit);
}

describe('text top k from impact-ordered prefixes (docs/decisions/0255)', () => {
  const run = (prefixSize: PrefixSize | undefined, seed: number) => {
    const next = seededRandom(seed);
    const pick = (list: readonly string[]) => list[Math.floor(list.length * next() ** 2)]!;
    const index = new TextMemoryIndex(prefixSize);
    const docs = new Map<number, Doc>();
    const put = (id: number) => {
      const rows: Row[] = FIELDS.filter(() => next() < 0.9).flatMap((field) =>
        (next() < 0.6 ? [''] : LOCALES.filter((l) => l !== '' && next() < 0.7)).map((locale) => ({
          field,
          locale,
          tokens: Array.from({ length: 1 + Math.floor(next() * (field === 'body' ? 30 : 5)) }, () => pick(WORDS)),
        })),
      );
      const doc = { scope: docs.get(id)?.scope ?? SCOPES[Math.floor(next() * SCOPES.length)]!, key: `k${String(id).padStart(5, '0')}`, rows };
      index.put({ doc: id, ...doc }, docs.get(id)?.rows.map((r) => r.tokens));
      if (rows.length > 0) docs.set(id, doc);
      else docs.delete(id);
    };
    const ask = (): { query: TopKQuery; got: Scored[] } => {
      const fields = FIELDS.filter(() => next() < 0.75);
      const query: TopKQuery = {
        terms: Array.from({ length: 1 + Math.floor(next() * 4) }, () => (next() < 0.05 ? 'nowhere' : pick(WORDS))),
        scope: SCOPES[Math.floor(next() * SCOPES.length)]!,
        fields: fields.length > 0 ? fields : ['body'],
        locale: [null, 'en', 'de'][Math.floor(next() * 3)]!,
        limit: 1 + Math.floor(next() * 25),
      };
      return { query, got: topK(index, query) };
    };
    let compared = 0;
    for (let round = 0; round < 8; round++) {
      // Documents come, change (stronger or weaker in a term than before) and go between the searches.
      for (let i = 0; i < (round === 0 ? 1500 : 300); i++) {
        const id = Math.floor(next() * 1800);
        if (round > 0 && next() < 0.15) {
          index.remove(id, docs.get(id)?.rows.map((r) => r.tokens));
          docs.delete(id);
        } else put(id);
      }
      if (round === 5) {
        while (!index.wantsCompaction) {
          const id = [...docs.keys()][Math.floor(next() * docs.size)]!;
          put(id);
        }
        index.compact();
      }
      for (let q = 0; q < 30; q++) {
        const { query, got } = ask();
        const want = everyDocument(docs, query);
        const what = `round ${round} ${JSON.stringify(query)}`;
        expect(got.map((h) => h.key), what).to.deep.equal(want.map((h) => h.key));
        got.forEach((hit, i) => expect(Math.abs(hit.score - want[i]!.score), `${what} score ${i}`).to.be.at.most(1e-9 * Math.abs(want[i]!.score)));
        compared += want.length;
      }
    }
    return compared;
  };

  it('answers as scoring every document would, through writes, removals and compaction, with prefixes of the default size', () => {
    expect(run(undefined, 11)).to.be.greaterThan(2000);
  });

  it('answers the same when the prefixes are too short to decide (the walk over the postings finishes what the seed began)', () => {
    expect(run((n) => Math.min(n, 1 + (n >> 5)), 12)).to.be.greaterThan(2000);
    expect(run(() => 0, 13)).to.be.greaterThan(2000);
  });

  it('answers the same when the first reads (whose strongest bounds give the first threshold) run past the end of every prefix', () => {
    // Forty documents a term at most: eight times the limit reads more than that for most queries.
    expect(run((n) => Math.min(n, 40), 14)).to.be.greaterThan(2000);
  });

  it('orders the read documents by their bounds from the greatest down, equal bounds in the order read, few or many', () => {
    const next = seededRandom(15);
    for (const count of [0, 1, 2, 5, 63, 64, 65, 300]) {
      const bounds = Float64Array.from({ length: count + 3 }, () => Math.floor(next() * 8) / 4);
      const want = Array.from({ length: count }, (_, i) => i).sort((a, b) => bounds[b]! - bounds[a]! || a - b);
      expect([...strongestFirst(bounds, count)], `${count}`).to.deep.equal(want);
    }
  });

  it('keep a term\'s prefix only while it bounds every document: a weaker document indexed later joins its members, a stronger one drops it', () => {
    const index = new TextMemoryIndex((n) => Math.min(n, 2));
    const body = (d: number, tokens: string[]) => index.put({ doc: d, scope: 's', key: `k${d}`, rows: [{ field: 'body', locale: '', tokens }] });
    const filler = Array.from({ length: 20 }, () => 'x');
    for (let d = 0; d < 50; d++) body(d, d < 2 ? ['b', 'b', 'b'] : d === 2 ? ['b', 'b', 'x', 'x'] : ['b', ...filler]);
    // A term of few of the index's documents: its members are a Bloom filter.
    for (let d = 50; d < 1050; d++) body(d, ['z']);
    const postings = index.terms.get('b')!;
    const prefix = index.impactsOf(postings);
    expect([...prefix.docs]).to.deep.equal([0, 1]);
    expect(prefix.complete).to.equal(false);
    expect(prefix.rest).to.be.greaterThan(0).and.below(prefix.values[1]!);
    expect([0, 1, 2, 30, 49].every((d) => mayHold(prefix, d))).to.equal(true);
    const strangers = Array.from({ length: 200 }, (_, i) => 1000 + i).filter((d) => !mayHold(prefix, d));
    expect(strangers.length, 'documents the filter tells apart').to.be.greaterThan(150);
    // Documents are numbered in the order they come (here as their ids): the next one the filter tells apart holds the term.
    const nextStranger = () => {
      while (mayHold(prefix, index.docKey.length)) body(index.docKey.length, ['y']);
      return index.docKey.length;
    };
    // Weaker than the rest: the prefix stays, the document is a member.
    const weak = nextStranger();
    body(weak, ['b', ...filler, ...filler]);
    expect(index.impactsOf(postings)).to.equal(prefix);
    expect(mayHold(prefix, weak)).to.equal(true);
    // Stronger than the rest: the prefix is made again, with it.
    const strong = nextStranger();
    body(strong, ['b', 'b', 'b', 'b']);
    const again = index.impactsOf(postings);
    expect(again).to.not.equal(prefix);
    expect(again.docs[0]).to.equal(strong);
  });

  it('keeps the members of a term of many of the documents one bit a document: exact, and those indexed later up to a quarter more (docs/decisions/0325)', () => {
    const index = new TextMemoryIndex();
    const body = (d: number, tokens: string[]) => index.put({ doc: d, scope: 's', key: `k${d}`, rows: [{ field: 'body', locale: '', tokens }] });
    for (let d = 0; d < 4000; d++) body(d, d % 3 === 0 ? ['m', 'x'] : ['x']);
    const prefix = index.impactsOf(index.terms.get('m')!);
    // A Bloom filter of 1,334 documents would be 16,384 bits; one bit a document is 5,064.
    expect(prefix.members.length * 8).to.be.below(6000);
    for (let d = 0; d < 4000; d++) expect(mayHold(prefix, d), `${d}`).to.equal(d % 3 === 0);
    // Indexed later: members as they come while the bits last, and past them every document may hold the term.
    for (let d = 4000; d < 6000; d++) body(d, d % 3 === 0 ? ['m', 'x', 'x', 'x', 'x'] : ['x']);
    expect(index.terms.get('m')!.impacts).to.equal(prefix);
    const bits = prefix.members.length * 8;
    for (let d = 4000; d < 6000; d++) expect(mayHold(prefix, d), `${d}`).to.equal(d >= bits || d % 3 === 0);
    for (const limit of [1, 5, 40]) {
      const hits = topK(index, { terms: ['m', 'x'], scope: 's', fields: ['body'], locale: null, limit });
      expect(hits.length).to.equal(limit);
      // Each 'm' document of a row of two tokens scores more than any other.
      expect(hits.every((hit) => Number(hit.key.slice(1)) % 3 === 0 && Number(hit.key.slice(1)) < 4000), `${limit}`).to.equal(true);
    }
  });
});
