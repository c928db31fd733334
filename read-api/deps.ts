import type { ReadStore, SearchIndex } from '../projections/ports.js';

export type ReadDeps = {
  readonly readStore: ReadStore;
  readonly searchIndex: SearchIndex;
};
