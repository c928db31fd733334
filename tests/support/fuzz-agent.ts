/* Agent endpoint calls (JSON-RPC over `_mcp`) for the fuzzing. */
import fc from 'fast-check';
import { bodies, deliveryAuth, WORDS, type Fixtures, type FuzzRequest } from './fuzz-values.js';

const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const TOOLS = ['discover', 'get_schema', 'get_record', 'query_records', 'search_records', 'create_record', 'update_record', 'nope', '__proto__'];

/** An agent call: initialize, list, or a tool with generated arguments (the replayed REST call gets them). */
export const mcpBody = (alias: string, resource: string) =>
  fc.oneof(
    fc.constant(rpc('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } })),
    fc.constant(rpc('tools/list', {})),
    fc
      .tuple(
        fc.constantFrom(...TOOLS),
        fc.dictionary(
          fc.constantFrom('collection_path', 'key', 'where', 'data', 'query', 'limit', 'locale', 'fields', 'cursor', 'next', 'search_mode', 'sort'),
          fc.oneof(
            { arbitrary: fc.constantFrom(alias, resource, `${alias}/../x`, '_mcp', `${alias}/_schema`, '', `${alias}/${resource}`, '%2e%2e', '?x=1'), weight: 3 },
            { arbitrary: fc.dictionary(fc.constantFrom('title', 'title__eq', '$', 'all_of', 'views', '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }), weight: 1 },
            { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 2 },
          ),
          { maxKeys: 4 },
        ),
      )
      .map(([name, args]) => rpc('tools/call', { name, arguments: args })),
    fc.constantFrom(...TOOLS).map((name) => rpc('tools/call', { name, arguments: { collection_path: alias, key: resource, data: { title: 'agent' } } })),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  );

/** A tool as `tools/list` describes it. */
export type ToolSchema = { readonly name: string; readonly inputSchema: { readonly properties?: Record<string, JsonSchema>; readonly required?: readonly string[] } };
type JsonSchema = { readonly type?: string; readonly enum?: readonly unknown[]; readonly items?: JsonSchema };

/** A value mostly of the schema's type (enums, strings of the domain, small objects), now and then anything. */
function valueFor(schema: JsonSchema, name: string, fixtures: Fixtures): fc.Arbitrary<unknown> {
  const known: Record<string, unknown[]> = {
    collection_path: [fixtures.alias, `${fixtures.alias}/${fixtures.resource}`, `${fixtures.alias}/_schema`, '..', '', 'nope'],
    key: [fixtures.resource, 'zz-nothing', '..', '_schema', '%2F'],
    populate: ['*', 'title', 'x.y', ''],
    next: ['', 'eyJ4IjoxfQ', '%%'],
  };
  const typed: fc.Arbitrary<unknown> =
    schema.enum !== undefined ? fc.constantFrom(...schema.enum)
    : schema.type === 'string'
      ? fc.oneof(
          { arbitrary: fc.constantFrom(...(known[name] ?? WORDS)), weight: known[name] ? 8 : 2 },
          { arbitrary: fc.constantFrom(...WORDS), weight: 1 },
          { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
        )
    : schema.type === 'integer' || schema.type === 'number' ? fc.oneof(fc.integer({ min: -1, max: 1001 }), fc.constantFrom(0, 1, 100, 1e9))
    : schema.type === 'boolean' ? fc.boolean()
    : schema.type === 'array' ? fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 8 })), { maxLength: 3 })
    : fc.oneof(
        fc.constant({ title: 'agent' }),
        fc.dictionary(fc.constantFrom('title', 'title__eq', 'title__icontains', 'query', 'fields', 'top_k', '$', 'all_of', 'any_of', '__proto__'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      );
  return fc.oneof({ arbitrary: typed, weight: 8 }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 });
}

/** Calls of the listed tools: their required arguments (mostly), some optional ones, values mostly of the right type. */
export function toolCalls(tools: readonly ToolSchema[], fixtures: Fixtures): fc.Arbitrary<string> {
  return fc.oneof(
    ...tools.map(({ name, inputSchema }) => {
      const properties = Object.entries(inputSchema.properties ?? {});
      const required = new Set(inputSchema.required ?? []);
      const args = properties.length === 0
        ? fc.constant({})
        : fc.record(Object.fromEntries(properties.map(([prop, schema]) => [prop, valueFor(schema, prop, fixtures)])), {
            requiredKeys: properties.filter(([prop]) => required.has(prop) && prop !== 'data').map(([prop]) => prop),
          });
      return args.map((a) => rpc('tools/call', { name, arguments: a }));
    }),
  );
}

/** An agent call on the public API's agent endpoint, mostly in a live session: initialize, list, tools with generated arguments, odd JSON-RPC. */
export function agentRequest(fixtures: Fixtures, credentials: readonly string[], sessions: readonly string[], tools: readonly ToolSchema[] = []) {
  return fc
    .tuple(
      deliveryAuth(credentials),
      fc.oneof({ arbitrary: fc.constantFrom(...sessions), weight: 8 }, { arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary: fc.uuid(), weight: 1 }),
      fc.oneof(
        { arbitrary: mcpBody(fixtures.alias ?? 'x', fixtures.resource ?? 'x'), weight: 3 },
        { arbitrary: tools.length > 0 ? toolCalls(tools, fixtures) : fc.constant('{}'), weight: tools.length > 0 ? 6 : 0 },
        { arbitrary: bodies(fixtures), weight: 1 },
      ),
    )
    .map(([authorization, session, b]): FuzzRequest => {
      const sent: Record<string, string> = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
      if (authorization) sent.authorization = authorization;
      if (session) sent['mcp-session-id'] = session;
      return { method: 'POST', path: `/${fixtures.env}/${fixtures.prefix}/_mcp`, headers: sent, body: b };
    });
}
