import { expect } from 'chai';
import { SEGMENT_ROWS, VectorBlock } from '../../infra/sqlite/vector-block.js';

describe('VectorBlock: one partition and locale in memory (docs/decisions/0205)', () => {
  let seed = 7;
  const next = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const blob = (v: number[]) => new Uint8Array(Float32Array.from(v).buffer);

  it('finds the exact nearest rows by cosine distance across segments, as rows come and go', () => {
    const dims = 3;
    const block = new VectorBlock(dims);
    const held = new Map<number, number[]>();
    const rows = SEGMENT_ROWS * 2 + 500;
    for (let vrow = 1; vrow <= rows; vrow++) {
      const v = [next() - 0.5, next() - 0.5, next() - 0.5];
      block.put(vrow, vrow * 10, vrow % 2 ? blob(v) : Buffer.from(blob(v)).toString('hex'));
      held.set(vrow, v);
    }
    for (let vrow = 1; vrow <= rows; vrow += 3) {
      block.remove(vrow);
      held.delete(vrow);
    }
    for (let vrow = 2; vrow <= 4000; vrow += 5) {
      const v = [next(), next(), next()];
      block.put(vrow, vrow * 10, blob(v));
      held.set(vrow, v);
    }
    expect(block.size).to.equal(held.size);
    expect(block.bytes).to.equal(2 * SEGMENT_ROWS * dims * 4);
    const query = [0.3, -0.5, 0.8];
    const norm = Math.hypot(...query);
    const unit = Float32Array.from(query.map((x) => x / norm));
    const cosine = (v: number[]) => 1 - (v[0]! * query[0]! + v[1]! * query[1]! + v[2]! * query[2]!) / (Math.hypot(...v) * norm);
    const expected = [...held].map(([vrow, v]) => ({ vrow, distance: cosine(v) })).sort((a, b) => a.distance - b.distance).slice(0, 25);
    const hits = block.nearest(unit, 25);
    expect(hits.map((hit) => hit.vrow)).to.deep.equal(expected.map((hit) => hit.vrow));
    hits.forEach((hit, i) => {
      expect(hit.doc).to.equal(hit.vrow * 10);
      expect(hit.distance).to.be.closeTo(expected[i]!.distance, 1e-5);
    });
  });

  it('gives a segment back when removals empty it, and answers nothing when empty', () => {
    const block = new VectorBlock(2);
    for (let vrow = 1; vrow <= SEGMENT_ROWS + 10; vrow++) block.put(vrow, vrow, blob([1, vrow]));
    expect(block.bytes).to.equal(2 * SEGMENT_ROWS * 2 * 4);
    for (let vrow = 1; vrow <= 20; vrow++) block.remove(vrow);
    expect(block.bytes).to.equal(SEGMENT_ROWS * 2 * 4);
    for (let vrow = 21; vrow <= SEGMENT_ROWS + 10; vrow++) block.remove(vrow);
    expect(block.size).to.equal(0);
    expect(block.nearest(Float32Array.of(1, 0), 5)).to.deep.equal([]);
  });
});
