// A process that searches through the text search thread and, as asked, closes the index or
// leaves it open: either way it must end by itself (tests/infra/sqlite-text-search-thread.test.ts).
import { SqliteSearchIndex } from '../../infra/sqlite/search-index.js';

const [file, close] = process.argv.slice(2) as [string, string];
const index = new SqliteSearchIndex(file, false, { textThread: true });
await index.unitOfWork('t', '00000000000000000001', async (tx) => {
  await tx.index({ env: 'e', folder: 'f', key: 'a', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', owner: null, data: { title: 'a' } });
  await tx.indexSearch('e', 'f', 'a', { texts: [{ field: 'title', locale: '', text: 'quince jelly' }], vectors: [] });
});
const hits = await index.searchText('e', 'f', { words: ['quince'], fields: ['title'], locale: null, limit: 10 });
console.log(JSON.stringify({ keys: hits.map((h) => h.key), thread: index.textThreadRunning }));
if (close === 'close') await index.close();
