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

// One entry of the source's `vectors` object: "word":[d1,...,dN,l2norm,rank]
const ENTRY = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/y;
const SEPARATOR = /[\s,]*/y;

type Entries = { words: Buffer[]; ranks: number[] };

/** Parses as many whole entries of `text` from `at` as there are; returns where it stopped and whether the object ended. */
function drain(text: string, at: number, dims: number, emit: (word: string, values: number[]) => void): { at: number; done: boolean } {
  for (;;) {
    SEPARATOR.lastIndex = at;
    SEPARATOR.exec(text);
    at = SEPARATOR.lastIndex;
    if (text[at] === '}') return { at, done: true };
    ENTRY.lastIndex = at;
    const match = ENTRY.exec(text);
    if (!match) return { at, done: false };
    const values = match[2]!.split(',').map(Number);
    if (values.length !== dims + 2) throw new Error(`word vector of ${values.length - 2} dimensions, expected ${dims}`);
    emit(JSON.parse(`"${match[1]}"`) as string, values);
    at = ENTRY.lastIndex;
  }
}

/**
 * Streams the package's JSON (`{..., "dimensions": N, ..., "vectors": {"word": [...]}}`) into the
 * binary file at `target`, holding only the word list in memory; written to a temporary name and
 * renamed, so readers never see half a file.
 */
export async function convertWordVectors(source: string, target: string): Promise<void> {
  const temp = `${target}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    const entries: Entries = { words: [], ranks: [] };
    let dims = 0;
    let offset = HEADER_BYTES;
    const write = (word: string, values: number[]) => {
      const vector = Float32Array.from(values.slice(0, dims));
      writeSync(fd, new Uint8Array(vector.buffer), 0, vector.byteLength, offset);
      offset += vector.byteLength;
      entries.words.push(Buffer.from(word, 'utf8'));
      entries.ranks.push(values[dims + 1]!);
    };
    const decoder = new StringDecoder('utf8');
    let text = '';
    let inVectors = false;
    let done = false;
    for await (const chunk of createReadStream(source, { highWaterMark: 1 << 20 })) {
      if (done) break;
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
      const result = drain(text, 0, dims, write);
      text = text.slice(result.at);
      done = result.done;
    }
    if (!done) throw new Error('the word-vector file ended inside "vectors"');
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
