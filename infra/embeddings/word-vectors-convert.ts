import { closeSync, createReadStream, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * The binary word-vector file (docs/decisions/0050):
 *   header (64 bytes): magic "WVEC0001", u32 dimensions, u32 count, u32 offsets of the
 *   rank, sorted, word-offset and word-blob sections
 *   vectors: count x dimensions float32, in the order the source lists them
 *   ranks: count x u32, frequency rank of each word (0 = most frequent)
 *   sorted: count x u32, entry numbers in byte order of their words (for binary search)
 *   word offsets: (count + 1) x u32 into the word blob; word blob: UTF-8
 */
export const MAGIC = 'WVEC0001';
export const HEADER_BYTES = 64;
/** Words whose vectors are written at once. */
const BLOCK_WORDS = 4096;

type Entries = { words: Buffer[]; ranks: number[] };

/**
 * Parses the whole entries at the start of `text` (the inside of the source's `vectors` object:
 * `"word":[d1,...,dN,l2norm,rank],...`) with one JSON.parse, about three times faster than an
 * entry at a time (docs/decisions/0349). The cut is the last `]` followed by `,` or `}`; one that
 * falls inside a word (which may hold such characters) or after the object does not parse, and the
 * cut before it is tried. Returns where it stopped and whether the object ended.
 */
function drain(text: string, dims: number, emit: (word: string, values: number[]) => void): { at: number; done: boolean } {
  for (let cut = text.length; cut > 0; ) {
    cut = Math.max(text.lastIndexOf('],', cut - 1), text.lastIndexOf(']}', cut - 1));
    if (cut < 0) break;
    let entries: Record<string, number[]>;
    try {
      entries = JSON.parse(`{${text.slice(0, cut + 1)}}`) as Record<string, number[]>;
    } catch {
      continue;
    }
    for (const [word, values] of Object.entries(entries)) {
      if (values.length !== dims + 2) throw new Error(`word vector of ${values.length - 2} dimensions, expected ${dims}`);
      emit(word, values);
    }
    return { at: cut + 2, done: text[cut + 1] === '}' };
  }
  return { at: 0, done: false };
}

/**
 * Streams the package's JSON (`{..., "dimensions": N, ..., "vectors": {"word": [...]}}`) into the
 * binary file at `target`, holding only the word list in memory; written to a temporary name and
 * renamed, so readers never see half a file.
 */
export async function convertWordVectors(source: string, target: string, progress?: (bytesRead: number) => void): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    const entries: Entries = { words: [], ranks: [] };
    let dims = 0;
    let offset = HEADER_BYTES;
    // Vectors are gathered in a block and written a block at a time: one write a word was most of the conversion's time.
    let block = new Float32Array(0);
    let filled = 0;
    const flush = () => {
      if (filled === 0) return;
      writeSync(fd, new Uint8Array(block.buffer, 0, filled * 4), 0, filled * 4, offset);
      offset += filled * 4;
      filled = 0;
    };
    const write = (word: string, values: number[]) => {
      if (block.length === 0) block = new Float32Array(dims * BLOCK_WORDS);
      if (filled + dims > block.length) flush();
      for (let i = 0; i < dims; i++) block[filled + i] = values[i]!;
      filled += dims;
      entries.words.push(Buffer.from(word, 'utf8'));
      entries.ranks.push(values[dims + 1]!);
    };
    const decoder = new StringDecoder('utf8');
    let text = '';
    let inVectors = false;
    let done = false;
    let bytesRead = 0;
    for await (const chunk of createReadStream(source, { highWaterMark: 1 << 20 })) {
      if (done) break;
      bytesRead += (chunk as Buffer).length;
      progress?.(bytesRead);
      text += decoder.write(chunk as Buffer);
      if (!inVectors) {
        const start = text.indexOf('"vectors":{');
        if (start < 0) continue;
        const dimsMatch = /"dimensions":(\d+)/.exec(text.slice(0, start));
        if (!dimsMatch) throw new Error('no "dimensions" before "vectors" in the word-vector file');
        dims = Number(dimsMatch[1]);
        text = text.slice(start + '"vectors":{'.length);
        inVectors = true;
      }
      const result = drain(text, dims, write);
      text = text.slice(result.at);
      done = result.done;
    }
    if (!done) throw new Error('the word-vector file ended inside "vectors"');
    flush();
    writeSections(fd, offset, dims, entries);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, target);
}

function u32s(values: ArrayLike<number>): Buffer {
  return Buffer.from(Uint32Array.from(values).buffer);
}

function writeSections(fd: number, vectorsEnd: number, dims: number, { words, ranks }: Entries): void {
  const count = words.length;
  const sorted = Array.from({ length: count }, (_, i) => i).sort((a, b) => Buffer.compare(words[a]!, words[b]!));
  const offsets: number[] = [0];
  for (const word of words) offsets.push(offsets[offsets.length - 1]! + word.length);
  const sections = [u32s(ranks), u32s(sorted), u32s(offsets), Buffer.concat(words)];
  const starts: number[] = [];
  let at = vectorsEnd;
  for (const section of sections) {
    starts.push(at);
    writeSync(fd, section, 0, section.length, at);
    at += section.length;
  }
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'ascii');
  [dims, count, ...starts, at].forEach((value, i) => header.writeUInt32LE(value, 8 + i * 4));
  writeSync(fd, header, 0, HEADER_BYTES, 0);
}
