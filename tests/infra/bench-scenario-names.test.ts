import { expect } from 'chai';
import { unknownScenarios, type Scenario } from '../../infra/bench/scenario.js';

const scenario = (name: string): Scenario => ({ name, run: async () => ({}) });
const SCENARIOS = [scenario('restart'), scenario('writes'), scenario('visibility'), scenario('memory')];

describe('benchmark: the names BENCH_SCENARIOS takes', () => {
  it('accepts every scenario name, and none', () => {
    expect(unknownScenarios(['writes', 'visibility'], SCENARIOS)).to.deep.equal([]);
    expect(unknownScenarios(['none'], SCENARIOS)).to.deep.equal([]);
    expect(unknownScenarios(null, SCENARIOS)).to.deep.equal([]);
  });

  it('names the ones no scenario has, so a misspelt run stops instead of measuring nothing', () => {
    expect(unknownScenarios(['writes', 'rebuild', 'vsibility'], SCENARIOS)).to.deep.equal(['rebuild', 'vsibility']);
  });
});
