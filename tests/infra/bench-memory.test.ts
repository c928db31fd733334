import { expect } from 'chai';
import { memoryFigures, parseResident } from '../../infra/bench/memory.js';

/** The benchmark's memory row (issue 15: resident memory under 400 MB with 100,000 resources, at rest and at the peak). */
describe('bench: the memory row', () => {
  it('reads VmRSS and VmHWM from a /proc status text, in MB', () => {
    const status = 'Name:\tnode\nVmHWM:\t  819200 kB\nVmRSS:\t  409600 kB\nThreads:\t11\n';
    expect(parseResident(status)).to.deep.equal({ now: 400, peak: 800 });
    expect(parseResident('Name:\tnode\nVmRSS:\t 1024 kB\n')).to.equal(null);
  });

  it('reports the value at rest and the peak, and meets the goal only when both are under 400 MB', () => {
    const both = memoryFigures({ now: 350, peak: 390 }, 100_000);
    expect(both.map((f) => f.value)).to.deep.equal(['350 MB', '390 MB']);
    expect(both.map((f) => f.met)).to.deep.equal([true, true]);

    const peakOver = memoryFigures({ now: 350, peak: 739 }, 100_000);
    expect(peakOver.map((f) => f.met)).to.deep.equal([true, false]);
    expect(peakOver[1]?.name).to.match(/peak \(VmHWM\)/);

    const restOver = memoryFigures({ now: 401, peak: 401 }, 120_000);
    expect(restOver.map((f) => f.met)).to.deep.equal([false, false]);
  });

  it('does not judge a run with fewer than 100,000 resources', () => {
    const small = memoryFigures({ now: 900, peak: 900 }, 30_000);
    expect(small.map((f) => f.met)).to.deep.equal([undefined, undefined]);
    expect(small[0]?.note).to.match(/BENCH_RESOURCES=100000/);
  });
});
