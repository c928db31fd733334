import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { request } from 'node:http';
import { WHERE_LIMITS } from '../../read-api/delivery/query/bounds.js';
import { deliveryFixture, type DeliveryFixture } from '../support/delivery-fixture.js';
import { startTestService, type Reply, type TestService } from '../support/service.js';

type ToolText = { content: { type: string; text: string }[]; isError?: boolean };

/**
 * The cost bounds of a delivery filter (docs/decisions/0333): too many conditions, groups nested
 * too deep or a text operand too long are 422 validation_error naming the limit, on GET lists,
 * on `_search` (answered by the delivery front or by the express app) and through the agent tools.
 */
describe('delivery filters are bounded', function () {
  this.timeout(60_000);
  let s: TestService;
  let f: DeliveryFixture;
  let client: Client;

  const conditions = (n: number) => Array.from({ length: n }, (_, i) => ({ views__gt: i }));
  const nested = (levels: number): object => (levels === 0 ? { views__gt: 1 } : { any_of: [nested(levels - 1)] });
  const long = 'x'.repeat(WHERE_LIMITS.max_text_operand_length + 1);

  const search = async (where: unknown): Promise<Reply> => {
    const response = await fetch(`${s.delivery}/site/articles/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ where }) });
    return { status: response.status, body: await response.json(), headers: response.headers };
  };
  /** The same `_search` sent chunked (no Content-Length): the delivery front leaves such a body to the express app. */
  const searchChunked = (where: unknown): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = request(`${s.delivery}/site/articles/_search`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: new Headers() }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ where }));
    });
  const refusedFor = (r: Reply, limit: string) => {
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).to.equal(422);
    expect(r.body.error_code).to.equal('validation_error');
    expect(JSON.stringify(r.body.detail)).to.include(limit);
  };

  before(async () => {
    s = await startTestService({ PLAN: 'pro' });
    f = await deliveryFixture(s);
    client = new Client({ name: 'bounds', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.delivery}/site/_mcp`)));
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await s?.stop();
  });

  it('answers a _search at the limits, and refuses one over each limit on both paths', async () => {
    const { max_where_conditions: most, max_where_depth: depth } = WHERE_LIMITS;
    expect((await search({ $: { all_of: conditions(most - 1) } })).status).to.equal(200);
    expect((await search({ $: nested(depth) })).status).to.equal(200);
    expect((await search({ $: { title__contains: 'x'.repeat(WHERE_LIMITS.max_text_operand_length) } })).status).to.equal(200);
    for (const send of [search, searchChunked]) {
      refusedFor(await send({ $: { all_of: conditions(most + 1) } }), 'max_where_conditions');
      refusedFor(await send({ $: { all_of: conditions(100).map((c) => ({ ...c, body__contains: 'x'.repeat(900) })) } }), 'max_where_conditions');
      refusedFor(await send({ $: nested(depth + 1) }), 'max_where_depth');
      refusedFor(await send({ $: { all_of: [{ title__contains: long }] } }), 'max_text_operand_length');
      refusedFor(await send({ $: { title__in: ['a', long] } }), 'max_text_operand_length');
    }
  });

  it('refuses a GET list over the condition and text limits', async () => {
    const many = Array.from({ length: WHERE_LIMITS.max_where_conditions + 1 }, (_, i) => `where__f${i}__eq=1`).join('&');
    refusedFor(await f.get(`site/articles/?${many}`), 'max_where_conditions');
    refusedFor(await f.get(`site/articles/?where__title__contains=${long}`), 'max_text_operand_length');
    expect((await f.get('site/articles/?where__title__contains=Hello')).status).to.equal(200);
  });

  it('refuses an agent tool call over a limit, naming it', async () => {
    const result = (await client.callTool({ name: 'search_records', arguments: { collection_path: 'articles', where: { $: { all_of: conditions(WHERE_LIMITS.max_where_conditions + 1) } } } })) as ToolText;
    expect(result.isError).to.equal(true);
    expect(result.content[0]!.text).to.include('max_where_conditions');
    const listed = (await client.callTool({ name: 'query_records', arguments: { collection_path: 'articles', where: { title__contains: long } } })) as ToolText;
    expect(listed.isError).to.equal(true);
    expect(listed.content[0]!.text).to.include('max_text_operand_length');
  });
});
