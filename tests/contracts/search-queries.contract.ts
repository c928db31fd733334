import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { SearchIndex, SearchEntries } from '../../projections/ports.js';
import { searchDoc, vec } from '../support/search-fixtures.js';

const doc = searchDoc;

/** The search side of the SearchIndex port: full text, vectors, vectors_size, metadata. */
export function searchQueriesContract(open: () => Promise<SearchIndex>): void {
  let index: SearchIndex;
  let env: string;

  beforeEach(async () => {
    index = await open();
    env = `e${randomUUID().slice(0, 8)}`;
  });
  afterEach(async () => index.close());

  const put = (key: string, entries: SearchEntries, data: Record<string, unknown> | null = { title: key }) =>
    index.unitOfWork('t', '00000000000000000001', async (tx) => {
      await tx.index(doc(env, key, data));
      await tx.indexSearch(env, 'f', key, entries);
    });

  it('ranks text matches by BM25 per field and locale, and matches phrases and words with typos', async () => {
    await put('a', { texts: [{ field: 'title', locale: '', text: 'red apple pie' }, { field: 'body', locale: 'de', text: 'roter Apfel' }], vectors: [] });
    await put('b', { texts: [{ field: 'title', locale: '', text: 'apple apple apple tart' }], vectors: [] });
    await put('c', { texts: [{ field: 'body', locale: 'en', text: 'pie crust' }], vectors: [] });
    const search = (words: string[], fields = ['title', 'body'], locale: string | null = null, threshold?: number) =>
      index.searchText(env, 'f', { words, fields, locale, limit: 10, threshold }).then((hits) => hits.map((h) => h.key));
    expect(await search(['apple'])).to.deep.equal(['b', 'a']);
    expect(await search(['pie'], ['body'])).to.deep.equal(['c']);
    expect(await search(['apfel'], ['body'], 'en')).to.deep.equal([]);
    expect(await search(['apfel'], ['body'], 'de')).to.deep.equal(['a']);
    expect(await search(['app'])).to.deep.equal([]);
    expect(await search(['app'], ['title'], null, 0.9)).to.deep.equal([]);
    expect(await search(['appple'])).to.deep.equal([]);
    expect(await search(['appple'], ['title'], null, 1)).to.deep.equal([]);
    expect(await search(['appple'], ['title'], null, 0.8)).to.deep.equal(['b', 'a']);
    expect(await search(['APPLÉ', 'krust'], ['title', 'body'], null, 0.8)).to.deep.equal(['b', 'a']);
    expect(await search(['crsut'], ['body'], 'en', 0.6)).to.deep.equal(['c']);
    expect(await search(['bpple'], ['title'], null, 0.5)).to.deep.equal([]);
    const phrase = await index.searchText(env, 'f', { phrase: ['apple', 'pie'], fields: ['title'], locale: null, limit: 10 });
    expect(phrase.map((h) => h.key)).to.deep.equal(['a']);
  });

  it('finds the nearest vectors by cosine distance in the named fields, and counts their bytes', async () => {
    await put('a', { texts: [], vectors: [{ field: 'title', locale: '', vector: vec(1, 0, 0) }, { field: 'body', locale: '', vector: vec(0, 0, 1) }] });
    await put('b', { texts: [], vectors: [{ field: 'title', locale: '', vector: vec(0.9, 0.1, 0) }] });
    const near = (vector: Float32Array, fields: string[]) => index.searchVectors(env, 'f', { vector, fields, locale: null, limit: 10 });
    const hits = await near(vec(1, 0, 0), ['title']);
    expect(hits.map((h) => h.key)).to.deep.equal(['a', 'b']);
    expect(hits[0]!.score).to.be.closeTo(0, 1e-6);
    expect((await near(vec(0, 0, 1), ['body'])).map((h) => h.key)).to.deep.equal(['a']);
    expect(await near(vec(1, 0), ['title'])).to.deep.equal([]);
    expect(await index.vectorsSize(env, 'f', 'a')).to.equal(24);
    expect(await index.vectorsSize(env, 'f', 'nope')).to.equal(0);
  });

  it('counts a zero vector (a text of no known word) but never finds it near anything', async () => {
    await put('z', { texts: [], vectors: [{ field: 'title', locale: '', vector: vec(0, 0, 0) }] });
    await put('a', { texts: [], vectors: [{ field: 'title', locale: '', vector: vec(0, 1, 0) }] });
    const hits = await index.searchVectors(env, 'f', { vector: vec(0, 1, 0), fields: ['title'], locale: null, limit: 10 });
    expect(hits.map((h) => h.key)).to.deep.equal(['a']);
    expect(await index.vectorsSize(env, 'f', 'z')).to.equal(12);
  });

  it('forgets the entries of an unpublished, re-indexed or removed document', async () => {
    const entries = { texts: [{ field: 'title', locale: '', text: 'kiwi' }], vectors: [{ field: 'title', locale: '', vector: vec(1, 0) }] };
    await put('a', entries);
    await put('b', entries);
    await index.unitOfWork('t', '00000000000000000002', async (tx) => {
      await tx.index(doc(env, 'a', null));
      await tx.remove(env, 'f', 'b');
    });
    expect(await index.searchText(env, 'f', { words: ['kiwi'], fields: ['title'], locale: null, limit: 10 })).to.deep.equal([]);
    expect(await index.searchVectors(env, 'f', { vector: vec(1, 0), fields: ['title'], locale: null, limit: 10 })).to.deep.equal([]);
    expect(await index.vectorsSize(env, 'f', 'a')).to.equal(0);
    await put('c', entries);
    await index.unitOfWork('t', '00000000000000000003', async (tx) => tx.removeFolder(env, 'f'));
    expect(await index.searchText(env, 'f', { words: ['kiwi'], fields: ['title'], locale: null, limit: 10 })).to.deep.equal([]);
  });

  it('replaces a document\'s entries indexed twice in one unit, and writes none for one its unit removed (docs/decisions/0326)', async () => {
    const words = (word: string, folder = 'f') => index.searchText(env, folder, { words: [word], fields: ['title'], locale: null, limit: 10 }).then((hits) => hits.map((h) => h.key));
    const entry = (text: string, ...v: number[]) => ({ texts: [{ field: 'title', locale: '', text }], vectors: [{ field: 'title', locale: '', vector: vec(...v) }] });
    await index.unitOfWork('t', '00000000000000000001', async (tx) => {
      await tx.index(doc(env, 'a'));
      await tx.indexSearch(env, 'f', 'a', entry('kiwi', 1, 0));
      await tx.indexSearch(env, 'f', 'a', entry('mango', 0, 1, 0));
      await tx.index(doc(env, 'b'));
      await tx.remove(env, 'f', 'b');
      await tx.index(doc(env, 'b'));
      await tx.indexSearch(env, 'f', 'b', entry('fig', 1, 0));
      await tx.index({ ...doc(env, 'c'), folder: 'g' });
      await tx.removeFolder(env, 'g');
      await tx.indexSearch(env, 'g', 'c', entry('pear', 1, 0));
    });
    expect(await words('kiwi')).to.deep.equal([]);
    expect(await words('mango')).to.deep.equal(['a']);
    expect(await words('fig')).to.deep.equal(['b']);
    expect(await words('pear', 'g')).to.deep.equal([]);
    expect(await index.vectorsSize(env, 'f', 'a')).to.equal(12);
    expect(await index.vectorsSize(env, 'g', 'c')).to.equal(0);
    await index.unitOfWork('t', '00000000000000000002', async (tx) => {
      await tx.index(doc(env, 'a'));
      await tx.index(doc(env, 'b'));
      await tx.indexSearch(env, 'f', 'b', entry('lime', 1, 0));
      await tx.indexSearch(env, 'f', 'a', entry('plum', 1, 0));
    });
    expect(await words('mango')).to.deep.equal([]);
    expect(await words('fig')).to.deep.equal([]);
    expect(await words('plum')).to.deep.equal(['a']);
    expect(await words('lime')).to.deep.equal(['b']);
    expect(await index.vectorsSize(env, 'f', 'a')).to.equal(8);
    expect(await index.searchVectors(env, 'f', { vector: vec(0, 1, 0), fields: ['title'], locale: null, limit: 10 })).to.deep.equal([]);
  });

  it('writes a document its unit found absent with its entries, and never gives it the entries of a removed one (docs/decisions/0329)', async () => {
    const words = (word: string) => index.searchText(env, 'f', { words: [word], fields: ['title'], locale: null, limit: 10 }).then((hits) => hits.map((h) => h.key));
    const near = () => index.searchVectors(env, 'f', { vector: vec(1, 0, 0), fields: ['title'], locale: null, limit: 10 }).then((hits) => hits.map((h) => h.key));
    await put('y', { texts: [{ field: 'title', locale: '', text: 'pear' }], vectors: [] });
    // The last row, with texts and a vector, removed: a store may give its row id to the next document.
    await put('z', { texts: [{ field: 'title', locale: '', text: 'plum' }], vectors: [{ field: 'title', locale: '', vector: vec(1, 0, 0) }] });
    await index.unitOfWork('t', '00000000000000000002', async (tx) => tx.remove(env, 'f', 'z'));
    await index.unitOfWork('t', '00000000000000000003', async (tx) => {
      expect(await tx.get(env, 'f', 'n')).to.equal(null);
      await tx.index(doc(env, 'n'));
      expect(await tx.get(env, 'f', 'm')).to.equal(null);
      await tx.index(doc(env, 'm', { title: 'first' }));
      await tx.index(doc(env, 'm', { title: 'second' }));
      await tx.indexSearch(env, 'f', 'm', { texts: [{ field: 'title', locale: '', text: 'bread' }], vectors: [] });
      expect(await tx.get(env, 'f', 'o')).to.equal(null);
      await tx.removeFolder(env, 'g');
      await tx.index(doc(env, 'o'));
      await tx.indexSearch(env, 'f', 'o', { texts: [{ field: 'title', locale: '', text: 'honey' }], vectors: [] });
    });
    expect(await words('plum')).to.deep.equal([]);
    expect(await near()).to.deep.equal([]);
    expect(await words('pear')).to.deep.equal(['y']);
    expect(await words('bread')).to.deep.equal(['m']);
    expect(await words('honey')).to.deep.equal(['o']);
    expect(await index.vectorsSize(env, 'f', 'n')).to.equal(0);
    expect((await index.get(env, 'f', 'n'))?.key).to.equal('n');
    expect((await index.get(env, 'f', 'm'))?.data).to.deep.equal({ title: 'second' });
    expect(await index.get(env, 'f', 'z')).to.equal(null);
  });

  it('keeps metadata values with the unit of work, and loads documents by keys', async () => {
    await index.unitOfWork('t', '00000000000000000001', async (tx) => {
      await tx.setMeta('x', { a: [1] });
      expect(await tx.meta('x')).to.deep.equal({ a: [1] });
      await tx.index(doc(env, 'a'));
    });
    await index.unitOfWork('t', '00000000000000000002', async (tx) => {
      expect(await tx.meta('x')).to.deep.equal({ a: [1] });
      await tx.setMeta('x', null);
    });
    await index.unitOfWork('t', '00000000000000000003', async (tx) => {
      expect(await tx.meta('x')).to.equal(null);
    });
    expect((await index.docsByKeys(env, 'f', ['a', 'nope'])).map((d) => d.key)).to.deep.equal(['a']);
  });
}
