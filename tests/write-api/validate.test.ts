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
