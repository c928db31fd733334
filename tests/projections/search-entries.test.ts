import { expect } from 'chai';
import type { Embedder } from '../../projections/embedder.js';
import { ALL_FIELDS, combinedVectors, customVectors, searchEntries, searchTexts } from '../../projections/search-entries.js';
import type { SearchField } from '../../projections/search-fields.js';

const field = (path: string, extra: Partial<SearchField> = {}): SearchField => ({
  path,
  type: 'string',
  localizable: false,
  searchable: false,
  vectorizable: false,
  dimensions: null,
  ...extra,
});

/** A fake model: the vector of a text is [its length, 1]. */
const lengths: Embedder = { model: 'lengths', embed: async (texts) => texts.map((t) => Float32Array.from([t.length, 1])) };

describe('search entries of a published payload', () => {
  const fields = [
    field('title', { searchable: true, vectorizable: true }),
    field('summary', { type: 'text', searchable: true, localizable: true }),
    field('tags', { searchable: true, multiple: true } as Partial<SearchField>),
    field('note'),
    field('author.name', { searchable: true }),
    field('views', { type: 'integer', searchable: true }),
    field('embedding', { type: 'vector', dimensions: 3 }),
  ];

  it('indexes searchable string and text fields per locale, arrays joined, nested paths followed, others left out', () => {
    const data = { title: 'Hello', summary: { en: 'Sun', de: 'Sonne', fr: null }, tags: ['a', 'b'], note: 'secret', author: { name: 'Ada' }, views: 5 };
    expect(searchTexts(fields, data).texts).to.deep.equal([
      { field: 'title', locale: '', text: 'Hello' },
      { field: 'summary', locale: 'en', text: 'Sun' },
      { field: 'summary', locale: 'de', text: 'Sonne' },
      { field: 'tags', locale: '', text: 'a\nb' },
      { field: 'author.name', locale: '', text: 'Ada' },
    ]);
    expect(searchTexts(fields, data).toEmbed).to.deep.equal([{ field: 'title', locale: '', text: 'Hello' }]);
  });

  it('keeps custom vectors of the declared width only', () => {
    expect(customVectors(fields, { embedding: [1, 2, 3] }).map((v) => Array.from(v.vector))).to.deep.equal([[1, 2, 3]]);
    expect(customVectors(fields, { embedding: [1, 2] })).to.deep.equal([]);
    expect(customVectors(fields, { embedding: [1, 'x', 3] })).to.deep.equal([]);
  });

  it('combines the embeddings of each locale with the non-localized ones into one unit vector', () => {
    const v = (field: string, locale: string, values: number[]) => ({ field, locale, vector: Float32Array.from(values) });
    const combined = combinedVectors([v('title', '', [1, 0]), v('summary', 'en', [0, 1]), v('summary', 'de', [0, -1])]);
    expect(combined.map((c) => [c.field, c.locale, Array.from(c.vector).map((x) => Number(x.toFixed(4)))])).to.deep.equal([
      [ALL_FIELDS, 'en', [0.7071, 0.7071]],
      [ALL_FIELDS, 'de', [0.7071, -0.7071]],
    ]);
    expect(combinedVectors([v('title', '', [3, 4])]).map((c) => [c.locale, Array.from(c.vector)])).to.deep.equal([['', [0.6000000238418579, 0.800000011920929]]]);
    expect(combinedVectors([])).to.deep.equal([]);
  });

  it('embeds the vectorizable texts through the embedder, with the combined and custom vectors', async () => {
    const entries = await searchEntries(fields, { title: 'Hello', embedding: [1, 2, 3] }, lengths);
    expect(entries.vectors.map((v) => [v.field, v.locale, v.vector.length])).to.deep.equal([
      ['title', '', 2],
      [ALL_FIELDS, '', 2],
      ['embedding', '', 3],
    ]);
    expect(Array.from(entries.vectors[0]!.vector)).to.deep.equal([5, 1]);
  });
});
