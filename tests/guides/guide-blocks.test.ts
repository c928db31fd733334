import { expect } from 'chai';
import { jsonMismatch, jsonValues, stepsOf, textMismatch } from '../support/guide-blocks.js';

describe('guide recipes: what a guide step is and when its answer matches', () => {
  it('takes each sh block with the json or text block after it as its answer, and skips console blocks', () => {
    const md = ['```sh', 'echo 1', '```', '', '```json', '{"a":1}', '```', '```console', 'docker run x', '```', '```sh', 'echo 2', '```', ''].join('\n');
    expect(stepsOf(md)).to.deep.equal([
      { line: 1, commands: 'echo 1\n', answer: { kind: 'json', body: '{"a":1}\n' } },
      { line: 11, commands: 'echo 2\n', answer: null },
    ]);
  });

  it('matches JSON by the keys the guide shows, … for any value, arrays item by item', () => {
    expect(jsonMismatch({ a: 1, b: '…' }, { a: 1, b: [2], c: 3 })).to.equal(null);
    expect(jsonMismatch({ a: 1 }, { a: 2 })).to.equal('$.a: expected 1, got 2');
    expect(jsonMismatch({ a: 1 }, {})).to.equal('$.a: missing');
    expect(jsonMismatch([1, 2], [1])).to.equal('$: expected 2 items, got 1');
    expect(jsonMismatch('id …', 'id 42')).to.equal(null);
  });

  it('matches text line by line in order, … for any text', () => {
    expect(textMismatch('a\nc…', 'a\nb\ncde')).to.equal(null);
    expect(textMismatch('c\na', 'a\nc')).to.equal('no line matches "a"');
  });

  it('reads every JSON value a step prints', () => {
    expect(jsonValues('{\n "a": 1\n}\n[2]\n')).to.deep.equal([{ a: 1 }, [2]]);
  });
});
