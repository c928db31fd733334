import { expect } from 'chai';
import { DONE, SeedMarks } from '../../infra/sqlite/text-seed-marks.js';

// The searches' scratch space kept between searches (docs/decisions/0280).
describe('text seed marks', () => {
  it('gives each search a stamp no document holds yet, and grows with the documents', () => {
    const marks = new SeedMarks();
    const first = marks.begin(10);
    marks.seen[3] = first;
    const second = marks.begin(10);
    expect(second).to.not.equal(first);
    expect(marks.seen[3]).to.not.equal(second);
    const third = marks.begin(5000);
    expect(marks.seen.length).to.be.at.least(5000);
    expect(Array.from(marks.seen).every((stamp) => stamp !== third)).to.equal(true);
  });

  it('keeps each read document once, with its bound, in the order read, past the first size of its table', () => {
    const marks = new SeedMarks();
    marks.begin(100_000);
    const docs = Array.from({ length: 6000 }, (_, i) => (i * 7919) % 100_000);
    for (const d of docs) {
      const s = marks.slot(d);
      expect(marks.added).to.equal(true);
      marks.known[s] = d / 2;
      marks.terms[s] = d % 3;
    }
    expect(marks.count).to.equal(docs.length);
    expect(marks.bounds.length).to.be.at.least(docs.length);
    expect(Array.from(marks.read.subarray(0, marks.count), (s) => marks.docOf(s))).to.deep.equal(docs);
    for (const d of docs) {
      const s = marks.slot(d);
      expect(marks.added).to.equal(false);
      expect(marks.find(d)).to.equal(s);
      expect([marks.known[s], marks.terms[s]]).to.deep.equal([d / 2, d % 3]);
    }
    expect(marks.find(1)).to.equal(-1);
    const slot = marks.slot(docs[0]!);
    marks.terms[slot] = marks.terms[slot]! | DONE;
    marks.begin(100_000);
    expect(marks.count).to.equal(0);
    expect(marks.find(docs[0]!)).to.equal(-1);
    const s = marks.slot(docs[0]!);
    expect([marks.added, marks.known[s], marks.terms[s]]).to.deep.equal([true, 0, 0]);
  });
});
