import { expect } from 'chai';
import { join } from 'node:path';
import { CACHE_KIB, openSqlite } from '../../infra/sqlite/open.js';
import { tempDir } from '../support/temp.js';

/** Every connection the service opens has the page cache of docs/decisions/0222, below the driver's compiled 16,000 KiB. */
describe('SQLite connections: page cache size', () => {
  it('sets cache_size to CACHE_KIB on writable, derived and read-only connections', () => {
    const file = join(tempDir(), 'cache.db');
    const writer = openSqlite(file);
    const derived = openSqlite(file, { derived: true });
    const reader = openSqlite(file, { readonly: true });
    try {
      for (const db of [writer, derived, reader]) expect(db.pragma('cache_size', { simple: true })).to.equal(-CACHE_KIB);
      expect(CACHE_KIB).to.be.below(16_000);
    } finally {
      for (const db of [reader, derived, writer]) db.close();
    }
  });
});
