import { expect } from 'chai';
import type { StoredEvent } from '../../commands/ports.js';
import { scratchRevisions, SCRATCH_CONSUMER } from '../../infra/rebuild/revisions-scratch.js';
import { Database } from '../../infra/sqlite/driver.js';
import { SHADOW, swapInReadModels } from '../../infra/sqlite/read-model-swap.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { ScratchReadStore } from '../../infra/sqlite/scratch-read-store.js';
import { replayInto } from '../../projections/rebuild.js';
import { tempDir } from '../support/temp.js';

const pos = (n: number): string => String(n).padStart(20, '0');

/** A log of revision events for replayInto (pages after a position, as `$all` answers them). */
function log(events: readonly { type: string; data: Record<string, unknown> }[]) {
  const stored: StoredEvent[] = events.map((e, i) => ({ ...e, position: pos(i + 1), stream: `revision-${i}`, revision: 0, metadata: {}, created_at: '2026-01-01T00:00:00.000Z' }) as unknown as StoredEvent);
  return { readAll: async (after: string, limit: number) => stored.filter((e) => e.position > after).slice(0, limit) };
}

const created = (key: string, folder: string) => ({
  type: 'RevisionCreated',
  data: { key, resource: `res-${key}`, folder, number: 1, status: 'draft', data: { title: key }, created_at: '2026-01-01T00:00:00.000Z' },
});

describe('a rebuild scratch file of read models, copied in by the swap (SQLite)', () => {
  let dir: string;
  let file: string;
  let scratch: string;
  let live: SqliteReadStore;

  beforeEach(async () => {
    dir = tempDir();
    file = `${dir}/read-models.db`;
    scratch = `${dir}/read-models.rebuilding.db`;
    live = new SqliteReadStore(file);
    await live.ensureIndex('notes', ['folder', 'status']);
    await live.unitOfWork('notes-consumer', pos(5), async (tx) => tx.collection('notes').upsert({ _id: 'old', folder: 'f', status: 'live' }));
    await live.unitOfWork('read-models', pos(5), async (tx) => tx.collection('things').upsert({ _id: 'a', name: 'live' }));
    const shadow = new SqliteReadStore(file, SHADOW);
    await shadow.unitOfWork('read-models', pos(7), async (tx) => tx.collection('things').upsert({ _id: 'a', name: 'rebuilt' }));
    await shadow.close();
  });
  afterEach(() => live.close());

  async function scratchNotes(position: string): Promise<void> {
    const store = new ScratchReadStore(scratch);
    const docs = new Map([['notes', new Map([['n1', { _id: 'n1', folder: 'f', status: 'draft' }], ['n2', { _id: 'n2', folder: 'g', status: 'published' }]])]]);
    await store.writeBatch({ removals: [], docs, positions: new Map([['notes-consumer', position]]), fresh: true });
    await store.ensureIndex('notes', ['folder', 'status']);
    await store.close();
  }

  function indexesOf(table: string): string[] {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare<[string], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`).all(table).map((r) => r.name);
    } finally {
      db.close();
    }
  }

  it('copies the scratch tables over the live ones in the same transaction, with the live indexes and the scratch checkpoints', async () => {
    await scratchNotes(pos(6));
    expect(swapInReadModels(file, scratch)).to.equal(true);
    expect(await live.collection('things').get('a')).to.include({ name: 'rebuilt' });
    expect(await live.collection('notes').get('old')).to.equal(null);
    expect(await live.collection('notes').find({ folder: 'g', status: 'published' })).to.deep.equal([{ _id: 'n2', folder: 'g', status: 'published' }]);
    expect(await live.checkpoint('notes-consumer')).to.equal(pos(6));
    expect(await live.checkpoint('read-models')).to.equal(pos(7));
    expect(indexesOf('rm_notes')).to.deep.equal(['ix_rm_notes_folder_status']);
    const db = new Database(file, { readonly: true });
    try {
      // The copied index entries are the ones SQLite would compute: the index answers what a scan answers.
      expect(db.prepare('PRAGMA integrity_check').all()).to.deep.equal([{ integrity_check: 'ok' }]);
    } finally {
      db.close();
    }
    // The service writes on into the copied table.
    await live.unitOfWork('notes-consumer', pos(8), async (tx) => tx.collection('notes').upsert({ _id: 'n3', folder: 'g', status: 'published' }));
    expect(await live.collection('notes').count({ folder: 'g' })).to.equal(2);
  });

  it('refuses, changing nothing, while a live consumer is past its scratch position', async () => {
    await scratchNotes(pos(4));
    expect(swapInReadModels(file, scratch)).to.equal(false);
    expect(await live.collection('notes').get('old')).to.include({ status: 'live' });
    expect(await live.collection('things').get('a')).to.include({ name: 'live' });
    expect(await live.checkpoint('notes-consumer')).to.equal(pos(5));
  });

  it('rebuilds the revisions into the scratch file, and catches them up from its checkpoint (reading documents written before)', async () => {
    const events = [created('r1', 'f'), created('r2', 'f')];
    const first = scratchRevisions(scratch);
    await replayInto(log(events), [first.target], '');
    await first.finish();
    await first.close();
    const later = [...events, { type: 'RevisionPublished', data: { key: 'r1', published_at: '2026-01-02T00:00:00.000Z' } }, created('r3', 'g')];
    const more = scratchRevisions(scratch, true);
    expect(await more.target.checkpoint()).to.equal(pos(2));
    await replayInto(log(later), [more.target], await more.target.checkpoint());
    await more.finish();
    await more.close();

    for (const fields of [['resource', 'number'], ['folder', 'status']]) await live.ensureIndex('revisions', fields);
    expect(swapInReadModels(file, scratch)).to.equal(true);
    expect(await live.checkpoint(SCRATCH_CONSUMER)).to.equal(pos(4));
    const revisions = (await live.collection('revisions').find({})).sort((a, b) => a._id.localeCompare(b._id));
    expect(revisions.map((r) => [r._id, r.status, (r.data as { title: string }).title])).to.deep.equal([
      ['r1', 'published', 'r1'],
      ['r2', 'draft', 'r2'],
      ['r3', 'draft', 'r3'],
    ]);
    expect(indexesOf('rm_revisions')).to.deep.equal(['ix_rm_revisions_folder_status', 'ix_rm_revisions_resource_number']);
  });
});
