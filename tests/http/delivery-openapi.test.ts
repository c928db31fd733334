import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestService, type TestService } from '../support/service.js';
import { tempDir } from '../support/temp.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Type errors of `file` compiled alone, strict, against Node's types. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    typeRoots: [resolve('node_modules/@types')],
    types: ['node'],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const CLIENT = `import type { paths } from './types.js';

type Page = paths['/articles/']['get']['responses']['200']['content']['application/json'];
type One = paths['/articles/{key}/']['get']['responses']['200']['content']['application/json'];
type SearchBody = NonNullable<paths['/articles/_search']['post']['requestBody']>['content']['application/json'];

export async function titles(server: string): Promise<string[]> {
  const page = (await (await fetch(\`\${server}/articles/?limit=10&sort=title\`)).json()) as Page;
  return page.results.map((item) => item.data?.title ?? '');
}

export async function views(server: string, key: string): Promise<number | undefined> {
  const one = (await (await fetch(\`\${server}/articles/\${key}/\`)).json()) as One;
  return one.data?.views;
}

export const search: SearchBody = { find_text: { query: 'hello' }, limit: 5 };
`;

describe('a reference per delivery API: GET {prefix}/_openapi', function () {
  this.timeout(60_000);
  let s: TestService;
  let doc: Json;
  let resource: string;

  before(async () => {
    s = await startTestService({ PLAN: 'starter' });
    const e = `/v1/${s.env}`;
    const c = (await s.api('POST', `${e}/collections/tree/`, { name: 'Articles', alias: 'articles' })).body.key;
    const v = (await s.api('POST', `${e}/collections/${c}/model/versions/`, { name: 'v1' })).body.key;
    await s.api('POST', `${e}/collections/${c}/model/versions/${v}/schema/tree/`, { key: 'title', name: 'Title', type: 'string', required: true, searchable: true });
    await s.api('POST', `${e}/collections/${c}/model/versions/${v}/schema/tree/`, { key: 'views', name: 'Views', type: 'integer' });
    await s.api('POST', `${e}/collections/${c}/model/versions/${v}/publish/`, {});
    const hidden = (await s.api('POST', `${e}/collections/tree/`, { name: 'Hidden', alias: 'hidden' })).body.key;
    const api = (await s.api('POST', `${e}/api/`, { name: 'Site', prefix: 'site' })).body.key;
    await s.api('POST', `${e}/api/${api}/collections/`, { folder: c, allowed_methods: ['get_many', 'get_one', 'create'] });
    expect(hidden).to.be.a('string');
    const closed = (await s.api('POST', `${e}/api/`, { name: 'Closed', prefix: 'closed', router_introspection_enabled: false })).body.key;
    await s.api('POST', `${e}/api/${closed}/collections/`, { folder: c, allowed_methods: ['get_many'] });
    resource = (await s.api('POST', `${e}/collections/${c}/resources/`, { data: { title: 'Hello', views: 7 } })).body.key;
    const r = await s.get(`${s.delivery}/site/_openapi`);
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    doc = r.body as Json;
  });
  after(() => s.stop());

  it('answers a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).to.equal(true);
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.servers[0].url).to.equal(s.delivery + '/site');
  });

  it('has a path per connected route and method, with every query parameter and the collection schema as data', () => {
    expect(Object.keys(doc.paths)).to.have.members(['/articles/', '/articles/_search', '/articles/{key}/', '/articles/_schema']);
    expect(doc.paths['/articles/']).to.have.keys('get', 'post');
    const names = doc.paths['/articles/'].get.parameters.map((p: Json) => p.name);
    expect(names).to.include.members(['limit', 'next', 'previous', 'sort', 'fields', 'populate', 'return_locales', 'where__{field}__{operator}']);
    expect(doc.paths['/articles/_search'].post.requestBody.content['application/json'].schema.properties).to.include.keys('find_text', 'vector_search', 'where');
    expect(doc.components.schemas.articles.properties).to.include.keys('title', 'views');
    expect(doc.components.schemas['articles.item'].properties.data).to.deep.equal({ $ref: '#/components/schemas/articles' });
    expect(doc.security).to.deep.include({});
    expect(doc.components.securitySchemes).to.include.keys('simple', 'bearer', 'secure');
  });

  it('is reachable where _router is: 404 route_not_found when router introspection is off, and for any method but GET', async () => {
    const closed = await s.get(`${s.delivery}/closed/_openapi`);
    expect([closed.status, closed.body.error_code]).to.deep.equal([404, 'route_not_found']);
    const post = await fetch(`${s.delivery}/site/_openapi`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).to.equal(404);
  });

  it('shows a key only the routes its role may read, and an auth-required API nothing without a key', async () => {
    const e = `/v1/${s.env}`;
    const c = (await s.api('GET', `${e}/collections/tree/`)).body.results.find((x: Json) => x.alias === 'articles').key;
    const other = (await s.api('POST', `${e}/collections/tree/`, { name: 'Notes', alias: 'notes' })).body.key;
    const api = (await s.api('POST', `${e}/api/`, { name: 'Private', prefix: 'private', is_auth_required: true })).body.key;
    await s.api('POST', `${e}/api/${api}/collections/`, { folder: c, allowed_methods: ['get_many', 'get_one'] });
    await s.api('POST', `${e}/api/${api}/collections/`, { folder: other, allowed_methods: ['get_many'] });
    const role = (await s.api('POST', `${e}/permissions/delivery-api/roles/`, { name: 'notes only' })).body.key;
    await s.api('POST', `${e}/permissions/delivery-api/roles/${role}/permissions/batch/`, [
      { content_type: 'flux-apis', actions: ['read'], all_objects: true },
      { content_type: 'collections', actions: ['read'], all_objects: false, objects: [other] },
    ]);
    const key = (await s.api('POST', `${e}/permissions/delivery-api/api-keys/`, { role })).body;
    const anonymous = await s.get(`${s.delivery}/private/_openapi`);
    expect([anonymous.status, anonymous.body.error_code]).to.deep.equal([401, 'authentication_required']);
    const limited = await s.get(`${s.delivery}/private/_openapi`, { authorization: `Simple ${key.public_key}:${key.secret_key}` });
    expect(limited.status, JSON.stringify(limited.body)).to.equal(200);
    expect(Object.keys(limited.body.paths)).to.have.members(['/notes/', '/notes/_search', '/notes/_schema']);
    expect(limited.body.security).not.to.deep.include({});
  });

  it('opens any API\'s document from the delivery reference page', async () => {
    const page = await (await fetch(`${s.service.urls.delivery}/docs/?api=${s.env}/site`)).text();
    expect(page).to.include(`data-url="/${s.env}/site/_openapi"`);
    const refused = await (await fetch(`${s.service.urls.delivery}/docs/?api=${encodeURIComponent('"><script>')}`)).text();
    expect(refused).to.include('data-url="/openapi.json"');
  });

  it('generates TypeScript types with openapi-typescript, and a small client type-checks and runs against the service', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'types.ts'), astToString(await openapiTS(doc as never)));
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    expect(typeErrors(join(dir, 'client.ts'))).to.deep.equal([]);
    const client = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as { titles: (server: string) => Promise<string[]>; views: (server: string, key: string) => Promise<number | undefined> };
    expect(await client.titles(`${s.delivery}/site`)).to.deep.equal(['Hello']);
    expect(await client.views(`${s.delivery}/site`, resource)).to.equal(7);
  });

  it('makes a client that reads a field the schema does not have fail to type-check', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'types.ts'), astToString(await openapiTS(doc as never)));
    writeFileSync(join(dir, 'client.ts'), CLIENT.replace('item.data?.title', 'item.data?.headline'));
    expect(typeErrors(join(dir, 'client.ts')).join('\n')).to.include('headline');
  });
});
