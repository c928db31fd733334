import { expect } from 'chai';
import { DomainError } from '../../domain/errors.js';
import { validator } from '../../write-api/validate.js';

describe('request validators', () => {
  it("fill the root properties' defaults into a copy: the request body keeps what was sent", () => {
    const check = validator<{ name: string | null; mode: string; data: Record<string, unknown> }>({
      type: 'object',
      properties: { name: { type: ['string', 'null'], default: null }, mode: { type: 'string', default: 'instant' }, data: { type: 'object' } },
      required: ['data'],
      additionalProperties: false,
    });
    const body = { data: { title: 'x' } };
    expect(check(body)).to.deep.equal({ name: null, mode: 'instant', data: { title: 'x' } });
    expect(body).to.deep.equal({ data: { title: 'x' } });
  });

  it('copy the whole body when a default sits deeper: the nested objects sent are left as they were', () => {
    const check = validator<{ meta: { kind: string } }>({
      type: 'object',
      properties: { meta: { type: 'object', properties: { kind: { type: 'string', default: 'plain' } } } },
      required: ['meta'],
    });
    const body = { meta: {} };
    expect(check(body)).to.deep.equal({ meta: { kind: 'plain' } });
    expect(body).to.deep.equal({ meta: {} });
  });

  it("copy a parsed body with its own properties in their order, the defaults after them, and an own __proto__ refused as sent (docs/decisions/0323)", () => {
    const check = validator<Record<string, unknown>>({
      type: 'object',
      properties: { data: { type: 'object' }, name: { type: ['string', 'null'], default: null }, mode: { type: 'string', default: 'instant' } },
      required: ['data'],
      additionalProperties: false,
    });
    const body = JSON.parse('{"mode":"draft","data":{"title":"x"}}') as Record<string, unknown>;
    const checked = check(body);
    expect(Object.keys(checked)).to.deep.equal(['mode', 'data', 'name']);
    expect(checked).to.deep.equal({ mode: 'draft', data: { title: 'x' }, name: null });
    expect(Object.getPrototypeOf(checked)).to.equal(Object.prototype);
    expect(body).to.deep.equal({ mode: 'draft', data: { title: 'x' } });
    const polluted = JSON.parse('{"data":{},"__proto__":{"name":"x"}}') as Record<string, unknown>;
    expect(() => check(polluted)).to.throw(DomainError);
    expect(({} as Record<string, unknown>).name).to.equal(undefined);
  });

  it('refuse invalid input with the given code and the field in the detail', () => {
    const check = validator<{ n: number }>({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, 'data_validation_error');
    const error = (() => {
      try {
        check({ n: 'one' });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal('data_validation_error');
    expect((error as DomainError).detail).to.have.property('n');
  });
});
