import { expect } from 'chai';
import { SeedMarks } from '../../infra/sqlite/text-seed-marks.js';

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
    expect(marks.bounded.length).to.be.at.least(5000);
    expect(marks.known.length).to.be.at.least(5000);
    expect(marks.terms.length).to.be.at.least(5000);
    expect(Array.from(marks.seen).every((stamp) => stamp !== third)).to.equal(true);
  });

  it('keeps the read list in order past its first size, and empties it for the next search', () => {
    const marks = new SeedMarks();
    marks.begin(10);
    for (let d = 0; d < 5000; d++) marks.push(d * 3);
    expect(marks.count).to.equal(5000);
    expect(marks.bounds.length).to.be.at.least(5000);
    expect(Array.from(marks.read.subarray(0, 5000))).to.deep.equal(Array.from({ length: 5000 }, (_, d) => d * 3));
    marks.begin(10);
    expect(marks.count).to.equal(0);
  });
});
