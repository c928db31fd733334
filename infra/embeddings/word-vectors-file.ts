import { closeSync, openSync, readSync } from 'node:fs';
import { HEADER_BYTES, MAGIC } from './word-vectors-convert.js';

/** One word's vector and its frequency rank (0 = most frequent). */
export type WordVector = { readonly vector: Float32Array; readonly rank: number };

function section(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.alloc(end - start);
  readSync(fd, buffer, 0, buffer.length, start);
  return buffer;
}

const u32 = (buffer: Buffer): Uint32Array => new Uint32Array(buffer.buffer, buffer.byteOffset, buffer.length / 4);

/**
 * The converted word-vector file, read lazily: the word list (a few MB) is loaded, each
 * vector is read from the file when a word is looked up (the OS page cache keeps the hot
 * ones), so the process never holds the 137 MB vector block.
 */
export class WordVectorsFile {
  readonly dimensions: number;
  readonly count: number;
  private readonly ranks: Uint32Array;
  private readonly sorted: Uint32Array;
  private readonly offsets: Uint32Array;
  private readonly blob: Buffer;

  constructor(private readonly fd: number) {
    const header = section(fd, 0, HEADER_BYTES);
    if (header.toString('ascii', 0, 8) !== MAGIC) throw new Error('not a word-vector file');
    const [dims, count, ranksAt, sortedAt, offsetsAt, blobAt, end] = Array.from({ length: 7 }, (_, i) => header.readUInt32LE(8 + i * 4));
    this.dimensions = dims!;
    this.count = count!;
    this.ranks = u32(section(fd, ranksAt!, sortedAt!));
    this.sorted = u32(section(fd, sortedAt!, offsetsAt!));
    this.offsets = u32(section(fd, offsetsAt!, blobAt!));
    this.blob = section(fd, blobAt!, end!);
  }

  static open(file: string): WordVectorsFile {
    return new WordVectorsFile(openSync(file, 'r'));
  }

  private word(entry: number): Buffer {
    return this.blob.subarray(this.offsets[entry]!, this.offsets[entry + 1]!);
  }

  /** The entry number of `word`, by binary search over the byte-ordered list, or -1. */
  entryOf(word: string): number {
    const wanted = Buffer.from(word, 'utf8');
    let low = 0;
    let high = this.count - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const entry = this.sorted[mid]!;
      const order = Buffer.compare(this.word(entry), wanted);
      if (order === 0) return entry;
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  lookup(word: string): WordVector | null {
    const entry = this.entryOf(word);
    if (entry < 0) return null;
    const bytes = this.dimensions * 4;
    const vector = new Float32Array(this.dimensions);
    readSync(this.fd, new Uint8Array(vector.buffer), 0, bytes, HEADER_BYTES + entry * bytes);
    return { vector, rank: this.ranks[entry]! };
  }

  close(): void {
    closeSync(this.fd);
  }
}
