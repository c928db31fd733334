import { expect } from 'chai';
import { Database } from '../../infra/sqlite/driver.js';
import { columnValue, type ColumnLayout } from '../../infra/sqlite/read-model-columns.js';
import { SHADOW, swapInReadModels } from '../../infra/sqlite/read-model-swap.js';
import { SqliteReadStore } from '../../infra/sqlite/read-store.js';
import { INDEXED_FIELDS, READ_MODELS, REVISION_MODELS } from '../../projections/catalog.js';
import { readModelTarget } from '../../projections/read-model-target.js';
import { USAGE_INDEXES, usageTarget } from '../../projections/usage.js';
import { readStoreContract, transactionalReadStoreContract } from '../contracts/read-store.contract.js';
import { tempDir } from '../support/temp.js';

/** A layout that gives every collection the same column fields (the contract's collections have random names). */
class EveryCollection extends Map<string, readonly string[]> {
  constructor(private readonly fields: readonly string[]) {
    super();
  }
  override get(): readonly string[] {
    return this.fields;
  }
}

/** The statements a store prepares while `work` runs (the driver's prepare, watched). */
async function prepared(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const proto = Database.prototype as unknown as { prepare: (sql: string) => unknown };
  const original = proto.prepare;
  proto.prepare = function (this: unknown, sql: string) {
    seen.push(sql);
    return original.call(this, sql);
  };
  try {
    await work();
  } finally {
    proto.prepare = original;
  }
  return seen;
}

function onFile<T>(file: string, read: (db: InstanceType<typeof Database>) => T): T {
  const db = new Database(file, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const plan = (file: string, sql: string, params: unknown[]): string =>
  onFile(file, (db) =>
    db
      .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params)
      .map((r) => r.detail)
      .join('; '),
  );

describe('read-model fields kept as columns (SQLite, docs/decisions/0304)', () => {
  describe('ReadStore contract with every filtered and sorted field a column', () => {
    const layout: ColumnLayout = new EveryCollection(['env', 'n', 'tag', 'flag', 'created_at', 'missing']);
    readStoreContract(async () => new SqliteReadStore(`${tempDir()}/read.db`, undefined, layout));
    transactionalReadStoreContract(async () => new SqliteReadStore(`${tempDir()}/read.db`, undefined, layout));
  });

  it('makes every field a read model or the usage counters index a column of its collection', () => {
    for (const projection of [...READ_MODELS, ...REVISION_MODELS]) {
      for (const [collection, indexes] of Object.entries(projection.indexes ?? {})) {
        expect(INDEXED_FIELDS.get(collection), collection).to.include.members(indexes.flat());
      }
    }
    expect(INDEXED_FIELDS.get('usage')).to.deep.equal([...USAGE_INDEXES.usage[0]]);
    expect(INDEXED_FIELDS.get('resources')).to.deep.equal(['folder', 'created_at', 'external_id', 'resource_owner']);
  });

  it('stores in a column what json_extract reads from the stored document', () => {
    const file = `${tempDir()}/values.db`;
    const db = new Database(file);
    try {
      const values: unknown[] = ['text', 'with "quotes" and \u00e9', 0, -3, 2.5, 1e21, true, false, null, undefined, { a: [1, { b: 'c' }] }, [1, 'two', null], new Date(Date.UTC(2026, 0, 2))];
      for (const value of values) {
        const doc = { _id: 'x', v: value };
        const fromJson = db.prepare<[string], { v: unknown }>("SELECT json_extract(?, '$.v') AS v").get(JSON.stringify(doc))!.v;
        const fromColumn = db.prepare<[unknown], { v: unknown }>('SELECT ? AS v').get(columnValue(doc, 'v'))!.v;
        expect(fromColumn, String(value)).to.deep.equal(fromJson);
        // Equal as SQLite compares them too (an integer stored as a real still matches).
        expect(db.prepare<[unknown, unknown], { same: number }>('SELECT ? IS ? AS same').get(columnValue(doc, 'v'), fromJson)!.same, String(value)).to.equal(1);
      }
    } finally {
      db.close();
    }
  });

  it('answers the read models’ indexed queries from the column indexes, with no JSON function', async () => {
    const file = `${tempDir()}/read-models.db`;
    const store = new SqliteReadStore(file);
    try {
      await readModelTarget(store, READ_MODELS).prepare();
      await usageTarget(store).prepare();
      await store.unitOfWork('read-models', '00000000000000000001', async (tx) => {
        for (let i = 0; i < 20; i += 1) {
          await tx.collection('resources').upsert({ _id: `r${i}`, folder: `f${i % 2}`, created_at: `2026-01-${String(i + 1).padStart(2, '0')}`, external_id: `x${i}`, resource_owner: null });
          await tx.collection('audit_events').upsert({ _id: `a${i}`, scope: 's', env: 'e', _position: String(i).padStart(20, '0') });
        }
      });
      const queries: [() => Promise<unknown>, string][] = [
        [() => store.collection('resources').find({ folder: 'f1' }, { sort: [['created_at', -1]], limit: 5 }), 'ix_rm_resources_folder_created_at'],
        [() => store.collection('resources').count({ folder: 'f0', external_id: 'x4' }), 'ix_rm_resources_folder_external_id'],
        [() => store.collection('audit_events').find({ scope: 's', env: 'e', _position: { $lt: '00000000000000000009' } }, { sort: [['_position', -1]], limit: 3 }), 'ix_rm_audit_events_scope_env__position'],
        [() => store.collection('usage').find({ organization: 'o' }), 'ix_rm_usage_organization'],
      ];
      for (const [query, index] of queries) {
        const statements = (await prepared(query)).filter((sql) => /^SELECT/.test(sql));
        expect(statements, index).to.have.length(1);
        const sql = statements[0]!;
        expect(sql, index).not.to.match(/json_/);
        const params = sql.split('?').slice(1).map(() => 'p');
        // A count reads the index alone (a covering index): the fields are in it, not in the JSON text.
        expect(plan(file, sql, params), index).to.match(new RegExp(`USING (COVERING )?INDEX ${index}\\b`));
      }
      const found = await store.collection('resources').find({ folder: 'f1' }, { sort: [['created_at', -1]], limit: 2 });
      expect(found.map((d) => d._id)).to.deep.equal(['r19', 'r17']);
      const indexSql = onFile(file, (db) => db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'ix_rm_resources_folder_created_at'").get()!.sql);
      expect(indexSql).to.contain('(c_folder, c_created_at)');
    } finally {
      await store.close();
    }
  });

  it('migrates a file written before: columns added and filled, its indexes rebuilt on them, once', async () => {
    const file = `${tempDir()}/read-models.db`;
    const old = new Database(file);
    old.exec('CREATE TABLE rm_resources (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
    old.exec("CREATE INDEX ix_rm_resources_folder_created_at ON rm_resources (json_extract(doc, '$.folder'), json_extract(doc, '$.created_at'))");
    old.exec('CREATE TABLE rm_things (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
    old.exec("CREATE INDEX ix_rm_things_name ON rm_things (json_extract(doc, '$.name'))");
    const put = old.prepare<[string, string]>('INSERT INTO rm_resources (id, doc) VALUES (?, ?)');
    put.run('a', JSON.stringify({ _id: 'a', folder: 'f', created_at: '2026-01-02', external_id: 'x', resource_owner: true }));
    put.run('b', JSON.stringify({ _id: 'b', folder: 'f', created_at: '2026-01-01' }));
    old.close();

    const store = new SqliteReadStore(file);
    try {
      const rows = onFile(file, (db) => db.prepare('SELECT id, c_folder, c_created_at, c_external_id, c_resource_owner FROM rm_resources ORDER BY id').all());
      expect(rows).to.deep.equal([
        { id: 'a', c_folder: 'f', c_created_at: '2026-01-02', c_external_id: 'x', c_resource_owner: 1 },
        { id: 'b', c_folder: 'f', c_created_at: '2026-01-01', c_external_id: null, c_resource_owner: null },
      ]);
      const indexes = onFile(file, (db) => db.prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").all());
      expect(indexes).to.deep.equal([
        { name: 'ix_rm_resources_folder_created_at', sql: 'CREATE INDEX ix_rm_resources_folder_created_at ON rm_resources (c_folder, c_created_at)' },
        // A collection no read model declares keeps its JSON index.
        { name: 'ix_rm_things_name', sql: "CREATE INDEX ix_rm_things_name ON rm_things (json_extract(doc, '$.name'))" },
      ]);
      expect((await store.collection('resources').find({ folder: 'f' }, { sort: [['created_at', 1]] })).map((d) => d._id)).to.deep.equal(['b', 'a']);
      await store.unitOfWork('read-models', '00000000000000000002', async (tx) => tx.collection('resources').upsert({ _id: 'c', folder: 'g', created_at: '2026-01-03' }));
      expect(await store.collection('resources').count({ folder: 'g' })).to.equal(1);
    } finally {
      await store.close();
    }
    // A second open finds the file in the layout and writes nothing.
    const before = onFile(file, (db) => db.pragma('schema_version', { simple: true }));
    await new SqliteReadStore(file).close();
    expect(onFile(file, (db) => db.pragma('schema_version', { simple: true }))).to.equal(before);
  });

  it('swaps rebuilt tables in with the live column indexes, built on the rebuilt columns', async () => {
    const file = `${tempDir()}/read-models.db`;
    const live = new SqliteReadStore(file);
    try {
      await live.ensureIndex('resources', ['folder', 'created_at']);
      await live.unitOfWork('read-models', '00000000000000000005', async (tx) => tx.collection('resources').upsert({ _id: 'a', folder: 'live', created_at: '1' }));
      const shadow = new SqliteReadStore(file, SHADOW);
      await shadow.unitOfWork('read-models', '00000000000000000007', async (tx) => tx.collection('resources').upsert({ _id: 'a', folder: 'rebuilt', created_at: '2' }));
      await shadow.close();
      expect(swapInReadModels(file)).to.equal(true);
      expect((await live.collection('resources').find({ folder: 'rebuilt' })).map((d) => d._id)).to.deep.equal(['a']);
      const sql = 'SELECT doc FROM rm_resources WHERE c_folder = ? ORDER BY c_created_at';
      expect(plan(file, sql, ['rebuilt'])).to.include('USING INDEX ix_rm_resources_folder_created_at');
      expect(onFile(file, (db) => db.prepare('SELECT c_folder, c_created_at FROM rm_resources').all())).to.deep.equal([{ c_folder: 'rebuilt', c_created_at: '2' }]);
    } finally {
      await live.close();
    }
  });
});
