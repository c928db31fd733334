import { expect } from 'chai';
import { deliveryFixture, keysOf, type DeliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type TestService } from '../support/service.js';

describe('HTTP: delivery lists filter, sort, page and validate', function () {
  this.timeout(30_000);
  let s: TestService;
  let f: DeliveryFixture;
  let a: readonly string[];

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    f = await deliveryFixture(s);
    a = f.a;
  });
  after(() => s?.stop());

  const list = (query: string) => f.get(`site/articles/?${query}`);
  const sorted = (keys: string[]) => [...keys].sort();

  it('answers every where__<field>__<operator> filter from the index, combined with AND', async () => {
    const cases: [string, string[]][] = [
      ['where__views__gte=5', [a[0]!, a[2]!]],
      ['where__views__between=3,7', [a[1]!, a[2]!]],
      ['where__title__icontains=HELLO', [a[0]!, a[1]!]],
      ['where__title__eq=Hallo%20Welt&search_locale=de', [a[0]!]],
      ['where__title__isnull=true&search_locale=de', [a[1]!, a[3]!]],
      ['where__tags__includes=tech', [a[0]!, a[1]!]],
      ['where__meta.color__in=red,blue', [a[0]!, a[1]!]],
      ['where__featured__eq=false', [a[1]!]],
      ['where__tags__exists=false', [a[2]!]],
      ['where__views__ne=10&where__views__lt=5', [a[1]!, a[3]!]],
      [`where___sys.key__eq=${a[1]}`, [a[1]!]],
      ['where__title__startswith=Z', [a[3]!]],
      ['where__title__iendswith=THERE', [a[1]!]],
      ['where__views__nin=0,10', [a[1]!, a[2]!]],
    ];
    for (const [query, expected] of cases) {
      const r = await list(query);
      expect(r.status, `${query}: ${JSON.stringify(r.body)}`).to.equal(200);
      expect(sorted(keysOf(r)), query).to.deep.equal(sorted(expected));
    }
  });

  it('refuses an unknown field, operator, parameter or a value of the wrong type with 422 naming it', async () => {
    const cases: [string, string][] = [
      ['where__nope__eq=1', 'where__nope__eq'],
      ['where__views__like=1', 'where__views__like'],
      ['where__views__gt=abc', 'where__views__gt'],
      ['where__views__eq=1.5', 'where__views__eq'],
      ['where__tags__eq=tech', 'where__tags__eq'],
      ['where__views__icontains=1', 'where__views__icontains'],
      ['where__featured__gt=true', 'where__featured__gt'],
      ['where__views__between=1', 'where__views__between'],
      ['where__title__exists=yes', 'where__title__exists'],
      ['where__meta__eq=x', 'where__meta__eq'],
      ['where___sys.nope__eq=x', 'where___sys.nope__eq'],
      ['colour=red', 'colour'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['sort=nope', 'sort'],
      ['sort=tags', 'sort'],
      ['search_locale=fr', 'search_locale'],
      ['return_locales=en,fr', 'return_locales'],
      ['fields=nope', 'fields'],
      ['populate=views', 'populate'],
      ['populate=author.company.x.y', 'populate'],
      ['truncate_text=0', 'truncate_text'],
      ['next=garbage', 'next'],
    ];
    for (const [query, name] of cases) {
      const r = await list(query);
      expect(r.status, query).to.equal(422);
      expect(r.body.error_code, query).to.equal('validation_error');
      expect(r.body.detail, query).to.have.property(name);
    }
  });

  it('clamps a limit above 100 to 100', async () => {
    const r = await list('limit=500');
    expect(r.status).to.equal(200);
    expect(r.body.limit).to.equal(100);
  });

  it('sorts by data and _sys fields, descending with -, and pages with cursors both ways', async () => {
    const first = await list('sort=-views&limit=2');
    expect(keysOf(first)).to.deep.equal([a[0], a[2]]);
    expect(first.body.previous).to.equal(null);
    const second = await s.get(first.body.next);
    expect(keysOf(second)).to.deep.equal([a[1], a[3]]);
    expect(second.body.next).to.equal(null);
    const back = await s.get(second.body.previous);
    expect(keysOf(back)).to.deep.equal([a[0], a[2]]);

    expect(keysOf(await list('sort=title'))).to.deep.equal([a[0], a[2], a[3], a[1]]);
    expect(keysOf(await list('sort=-_sys.created_at'))).to.deep.equal([...a].reverse());
    expect(keysOf(await list('sort=featured,-views'))).to.deep.equal([a[2], a[3], a[1], a[0]]);
  });

  it('keeps filters on the next page and refuses a cursor under another sort', async () => {
    const first = await list('where__views__gte=1&sort=views&limit=1');
    expect(keysOf(first)).to.deep.equal([a[1]]);
    expect(first.body.next).to.contain('where__views__gte=1');
    const second = await s.get(first.body.next);
    expect(keysOf(second)).to.deep.equal([a[2]]);
    const cursor = new URL(first.body.next).searchParams.get('next');
    const mixed = await list(`sort=-views&next=${cursor}`);
    expect(mixed.status).to.equal(422);
    expect(mixed.body.detail).to.have.property('next');
  });

  it('filters and sorts a get_many-only connection by _sys fields only and serves no data', async () => {
    const r = await f.get(`keysonly/articles/?sort=-_sys.created_at&where___sys.key__in=${a[0]},${a[1]}`);
    expect(r.status).to.equal(200);
    expect(keysOf(r)).to.deep.equal([a[1], a[0]]);
    for (const item of r.body.results) expect(item).to.have.all.keys('_sys');
    const byData = await f.get('keysonly/articles/?where__views__gt=1');
    expect(byData.status).to.equal(422);
    expect(byData.body.detail).to.have.property('where__views__gt');
    expect((await f.get(`keysonly/articles/${a[0]}/`)).status).to.equal(403);
  });

  it('serves get-one with content but no list on a get_one-only connection', async () => {
    const listed = await f.get('noco/authors/');
    expect(listed.status).to.equal(403);
    expect(listed.body.error_code).to.equal('permission_denied');
    const one = await f.get(`noco/authors/${f.author}/`);
    expect(one.status).to.equal(200);
    expect(one.body.data.name).to.equal('Ann');
  });

  it('gives a connection with no methods its URL structure only', async () => {
    const listed = await f.get('bare/articles/');
    expect(listed.status).to.equal(403);
    expect(listed.body.error_code).to.equal('permission_denied');
    expect((await f.get(`bare/articles/${a[0]}/`)).status).to.equal(403);
    const schema = await f.get('bare/articles/_schema');
    expect(schema.status).to.equal(200);
    expect(schema.body.actions).to.deep.equal([]);
  });
});
