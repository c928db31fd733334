import type { Statement } from './driver.js';
import type { SqliteDb } from './open.js';

/**
 * The tokens FTS5's `unicode61 remove_diacritics 2` tokenizer makes of a text, for the in-memory
 * text index (docs/decisions/0200). A text of ASCII characters only is split here: unicode61's
 * token characters in ASCII are exactly the letters and digits, folded to lower case. Any other
 * text is handed to FTS5 itself, through a temporary FTS5 table of the same tokenizer on the
 * given connection and its `fts5vocab` instance table, so accents, scripts and case folding are
 * whatever SQLite does.
 */
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_TOKEN = /[a-z0-9]+/g;

/** Whether a text is plain ASCII (split on letters and digits without asking FTS5). */
export const isAscii = (text: string): boolean => ASCII.test(text);

const TEMP_SCHEMA = `
CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_tokens USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE IF NOT EXISTS temp.text_tokens_instance USING fts5vocab(temp, text_tokens, 'instance');
`;

function asciiTokens(text: string): string[] {
  return text.toLowerCase().match(ASCII_TOKEN) ?? [];
}

/** Tokenizes texts as `search_text` does; `db` (any connection) tokenizes the texts that are not plain ASCII. */
export class Tokenizer {
  private statements: { insert: Statement<[number, string]>; read: Statement<[], { term: string; doc: number; offset: number }>; clear: Statement } | null = null;

  constructor(private readonly db: SqliteDb) {}

  /** The token lists of several texts, in order. */
  tokenize(texts: readonly string[]): string[][] {
    const result: string[][] = new Array<string[]>(texts.length);
    const others: number[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (ASCII.test(texts[i]!)) result[i] = asciiTokens(texts[i]!);
      else others.push(i);
    }
    if (others.length === 0) return result;
    const tokens = this.byFts5(others.map((i) => texts[i]!));
    others.forEach((i, at) => (result[i] = tokens.get(at) ?? []));
    return result;
  }

  /** Tokens by FTS5 itself: each text a row of a temporary table, read back in token order. */
  private byFts5(texts: readonly string[]): Map<number, string[]> {
    if (!this.statements) {
      this.db.exec(TEMP_SCHEMA);
      this.statements = {
        insert: this.db.prepare<[number, string]>('INSERT INTO temp.text_tokens (rowid, body) VALUES (?, ?)'),
        read: this.db.prepare<[], { term: string; doc: number; offset: number }>('SELECT term, doc, offset FROM temp.text_tokens_instance'),
        clear: this.db.prepare('DELETE FROM temp.text_tokens'),
      };
    }
    const { insert, read, clear } = this.statements;
    const found = new Map<number, { offset: number; term: string }[]>();
    try {
      texts.forEach((text, i) => insert.run(i, text));
      for (const { term, doc, offset } of read.iterate()) {
        let list = found.get(doc);
        if (!list) found.set(doc, (list = []));
        list.push({ offset, term });
      }
    } finally {
      clear.run();
    }
    const tokens = new Map<number, string[]>();
    for (const [doc, list] of found) tokens.set(doc, list.sort((a, b) => a.offset - b.offset).map((t) => t.term));
    return tokens;
  }
}
