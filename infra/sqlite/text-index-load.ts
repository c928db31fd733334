import { openSqlite, type SqliteDb } from './open.js';
import { TextMemoryIndex, type TokenRow } from './text-memory-index.js';
import { isAscii, type Tokenizer } from './text-tokens.js';

/** Rows read at a time when loading: a slice of work between two turns of the event loop. */
const LOAD_PAGE = 256;
/** Postings gone over between two turns of the event loop while the terms' impact prefixes are made. */
const PREFIX_STEP = 20_000;

export const scopeOf = (env: string, folder: string): string => `${env}/${folder}`;

export type TextRowText = { readonly field: string; readonly locale: string; readonly text: string };

type LoadRow = { rowid: number; doc: number; field: string; locale: string; body: string; env: string; folder: string; key: string };

/** Tokenizes a document's texts and puts its rows into the index. */
export function putTexts(
  index: TextMemoryIndex,
  tokenizer: Tokenizer,
  doc: { readonly doc: number; readonly scope: string; readonly key: string },
  texts: readonly TextRowText[],
  removed?: readonly (readonly string[])[],
): void {
  // Plain ASCII is split by the index as it reads it; anything else is tokenized by FTS5.
  const others = texts.filter((t) => !isAscii(t.text));
  const tokens = others.length > 0 ? tokenizer.tokenize(others.map((t) => t.text)) : [];
  let next = 0;
  const rows: TokenRow[] = texts.map((t) => (isAscii(t.text) ? { field: t.field, locale: t.locale, ascii: t.text } : { field: t.field, locale: t.locale, tokens: tokens[next++]! }));
  index.put({ ...doc, rows }, removed);
}

/**
 * Loads the FTS rows of a delivery index file into a new in-memory index (docs/decisions/0200),
 * one page of rows per step (a generator: the caller runs it at once or a step per turn of the
 * event loop). Its own connection holds one read transaction throughout, so the rows and the
 * generation read are one state of the file whatever is written meanwhile. Postings are sized
 * from FTS5's own counts of rows per term, so they are allocated once.
 */
export function* loadTextIndex(file: string, tokenizer: Tokenizer): Generator<void, { index: TextMemoryIndex; generation: number }> {
  const db: SqliteDb = openSqlite(file);
  try {
    // One pass over the rows: a small page cache is enough (and is memory the service keeps after a load).
    db.pragma('cache_size = -2048');
    db.exec('BEGIN');
    const generation = db.prepare<[], number>('SELECT value FROM search_generation WHERE id = 0').pluck().get() ?? 0;
    const index = new TextMemoryIndex();
    for (const { term, doc } of db.prepare<[], { term: string; doc: number }>('SELECT term, doc FROM search_vocab').all()) index.reserve(term, doc);
    yield;
    // In row order, a document's rows come together (they are inserted together); a document
    // met again later has all its rows read through doc_texts and put again.
    // The rows straight from FTS5's content table (its columns in declaration order: body, doc, field, locale).
    const page = db.prepare<[number, number], LoadRow>(
      `SELECT s.id AS rowid, s.c1 AS doc, s.c2 AS field, s.c3 AS locale, s.c0 AS body, d.env AS env, d.folder AS folder, d.key AS key
       FROM search_text_content s JOIN docs d ON d.rowid = s.c1 WHERE s.id > ? AND d.data IS NOT NULL ORDER BY s.id LIMIT ?`,
    );
    const seen = new Set<number>();
    const again = new Set<number>();
    let doc: LoadRow | null = null;
    let texts: TextRowText[] = [];
    const flush = () => {
      if (doc) putTexts(index, tokenizer, { doc: doc.doc, scope: scopeOf(doc.env, doc.folder), key: doc.key }, texts);
      texts = [];
    };
    for (let after = 0; ; ) {
      const rows = page.all(after, LOAD_PAGE);
      for (const row of rows) {
        if (row.doc !== doc?.doc) {
          flush();
          if (seen.has(row.doc)) again.add(row.doc);
          seen.add(row.doc);
          doc = row;
        }
        texts.push({ field: row.field, locale: row.locale, text: row.body });
      }
      if (rows.length < LOAD_PAGE) break;
      after = rows[rows.length - 1]!.rowid;
      yield;
    }
    flush();
    const ofDoc = db.prepare<[number], LoadRow>(
      `SELECT t.trow AS rowid, t.doc AS doc, s.field AS field, s.locale AS locale, s.body AS body, d.env AS env, d.folder AS folder, d.key AS key
       FROM doc_texts t JOIN search_text s ON s.rowid = t.trow JOIN docs d ON d.rowid = t.doc WHERE t.doc = ? AND d.data IS NOT NULL ORDER BY t.trow`,
    );
    for (const id of again) {
      const all = ofDoc.all(id);
      if (all.length === 0) continue;
      putTexts(index, tokenizer, { doc: id, scope: scopeOf(all[0]!.env, all[0]!.folder), key: all[0]!.key }, all.map((r) => ({ field: r.field, locale: r.locale, text: r.body })));
    }
    db.exec('COMMIT');
    index.trim();
    // Each term's strongest documents (docs/decisions/0255), made here rather than on a term's first search.
    let made = 0;
    for (const postings of index.terms.values()) {
      if (postings.df > 0) made += index.impactsOf(postings).docs.length + postings.length;
      if (made >= PREFIX_STEP) {
        made = 0;
        yield;
      }
    }
    return { index, generation };
  } finally {
    db.close();
  }
}
