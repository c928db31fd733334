import { expect } from 'chai';
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';
import { SqliteSearchTables } from '../../infra/sqlite/search-tables.js';
import { openSqlite } from '../../infra/sqlite/open.js';
import { ALL_FIELDS } from '../../projections/search-entries.js';
import type { SearchEntries } from '../../projections/ports.js';
import { searchDoc, vec } from '../support/search-fixtures.js';
import { tempDir } from '../support/temp.js';

describe('the delivery index answers vectors_size of what it just wrote (docs/decisions/0296)', () => {
  let file: string;
  let index: SqliteSearchIndex;
  /** vectors_size as a query of the file gives it. */
  const stored = (key: string): number => {
    const db = openSqlite(file, { vectors: true });
    try {
      return new SqliteSearchTables(db).vectorsSizeOf('e', 'f', key);
    } finally {
      db.close();
    }
  };
  let position = 0;
  const unit = (work: Parameters<SqliteSearchIndex['unitOfWork']>[2]) => index.unitOfWork('t', String(++position).padStart(20, '0'), work);
  const entries = (...vectors: [string, Float32Array][]): SearchEntries => ({ texts: [], vectors: vectors.map(([field, vector]) => ({ field, locale: '', vector })) });

  beforeEach(() => {
    file = `${tempDir()}/delivery.db`;
    index = new SqliteSearchIndex(file);
  });
  afterEach(async () => index.close());

  it('gives the same bytes as the stored rows for indexed, re-indexed, unpublished and removed documents', async () => {
    await unit(async (tx) => {
      await tx.index(searchDoc('e', 'a'));
      await tx.indexSearch('e', 'f', 'a', entries(['title', vec(1, 0, 0)], ['body', vec(0, 1)], [ALL_FIELDS, vec(1, 1, 1)]));
      await tx.index(searchDoc('e', 'b'));
      await tx.indexSearch('e', 'f', 'b', entries(['title', vec(0, 0, 0)]));
      await tx.index(searchDoc('e', 'c'));
    });
    for (const key of ['a', 'b', 'c', 'none']) expect(await index.vectorsSize('e', 'f', key), key).to.equal(stored(key));
    expect(await index.vectorsSize('e', 'f', 'a')).to.equal(20);
    await unit(async (tx) => {
      await tx.index(searchDoc('e', 'a', null));
      await tx.remove('e', 'f', 'b');
    });
    for (const key of ['a', 'b', 'c']) expect(await index.vectorsSize('e', 'f', key), key).to.equal(stored(key));
  });

  it('answers from the last two units of work without reading the file, then from the file again', async () => {
    await unit(async (tx) => {
      await tx.index(searchDoc('e', 'a'));
      await tx.indexSearch('e', 'f', 'a', entries(['title', vec(1, 0, 0)]));
    });
    // Rows changed behind the index's back (no process does this) show which answer is read.
    const db = openSqlite(file, { vectors: true });
    db.prepare('UPDATE doc_vectors SET bytes = 1000').run();
    db.close();
    expect(await index.vectorsSize('e', 'f', 'a')).to.equal(12);
    await unit(async (tx) => tx.index(searchDoc('e', 'other')));
    expect(await index.vectorsSize('e', 'f', 'a')).to.equal(12);
    await unit(async (tx) => tx.index(searchDoc('e', 'another')));
    expect(await index.vectorsSize('e', 'f', 'a')).to.equal(1000);
  });

  it('forgets the older unit of work once a collection was removed', async () => {
    await unit(async (tx) => {
      await tx.index(searchDoc('e', 'a'));
      await tx.indexSearch('e', 'f', 'a', entries(['title', vec(1, 0, 0)]));
    });
    await unit(async (tx) => tx.removeFolder('e', 'f'));
    expect(await index.vectorsSize('e', 'f', 'a')).to.equal(0);
    expect(stored('a')).to.equal(0);
  });

  it('forgets what the same unit of work wrote into a collection it then removed', async () => {
    await unit(async (tx) => {
      await tx.index(searchDoc('e', 'a'));
      await tx.indexSearch('e', 'f', 'a', entries(['title', vec(1, 0, 0)]));
      await tx.removeFolder('e', 'f');
    });
    expect(stored('a')).to.equal(0);
    expect(await index.vectorsSize('e', 'f', 'a')).to.equal(0);
  });
});
