import type { DeliveryApi, DeliveryRoute } from '../routing.js';
import { matchRoute } from '../scope.js';
import { pathTemplate, type ToolName } from './catalog.js';
import { forward, type Answer, type Caller } from './forward.js';
import { truncateTexts } from './truncate.js';

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };
export type Args = Record<string, unknown>;

/** What a tool call needs besides its arguments. */
export type CallContext = {
  readonly api: DeliveryApi;
  readonly caller: Caller;
  /** Dot paths of a collection's `text` fields. */
  readonly textFields: (folder: string) => Promise<readonly string[]>;
  /** Whether the caller's key may read a collection: `discover` lists only those (docs/decisions/0161). */
  readonly readable: (folder: string) => boolean;
};

const text = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

/** A refusal of the delivery interface, passed on to the agent as a tool error with its status and envelope. */
const refusal = (answer: Answer): ToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify({ status: answer.status, ...(answer.body && typeof answer.body === 'object' ? answer.body : { message: String(answer.body) }) }) }],
});

const answerOf = (answer: Answer): ToolResult => (answer.status >= 400 ? refusal(answer) : text(answer.body));

/** A query string from the arguments that are query parameters (arrays joined by commas). */
function query(args: Args, names: readonly string[]): string {
  const params = new URLSearchParams();
  for (const name of names) {
    if (name === 'where') continue;
    const value = args[name];
    if (value === undefined) continue;
    params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const where = args.where;
  if (where && typeof where === 'object' && names.includes('where')) {
    for (const [condition, value] of Object.entries(where)) params.append(`where__${condition}`, Array.isArray(value) ? value.join(',') : String(value));
  }
  const rendered = params.toString();
  return rendered ? `?${rendered}` : '';
}

const segmentsOf = (path: string): string[] => path.split('/').filter(Boolean);
const encoded = (segments: readonly string[]): string => segments.map(encodeURIComponent).join('/');

/** The connected collection a path names (its scoped or a flat address), for truncation. */
function routeOf(api: DeliveryApi, segments: readonly string[]): DeliveryRoute | null {
  for (const route of api.routes) {
    const match = matchRoute(route, segments);
    if (match && match.rest.length === 0) return route;
  }
  return null;
}

/**
 * Cuts `text` fields of listed items at the connection's `mcp_truncate_text` (never on a
 * connection without `get_one`, whose lists carry no data) and flags each cut item with the
 * fields it shortened (docs/decisions/0121).
 */
async function truncated(context: CallContext, route: DeliveryRoute | null, body: unknown): Promise<unknown> {
  const limit = route?.mcp_truncate_text ?? null;
  if (!route || limit === null || !route.allowed_methods.includes('get_one')) return body;
  if (!body || typeof body !== 'object' || !Array.isArray((body as { results?: unknown }).results)) return body;
  const paths = await context.textFields(route.folder);
  if (paths.length === 0) return body;
  const results = ((body as { results: unknown[] }).results).map((item) => {
    if (!item || typeof item !== 'object' || !('data' in item)) return item;
    const cut = truncateTexts((item as { data: unknown }).data, paths, limit);
    return cut.truncated.length === 0 ? item : { ...item, data: cut.data, truncated_fields: cut.truncated };
  });
  return { ...(body as object), results, truncate_text: limit };
}

/** Runs one tool call against the delivery interface. Arguments are already validated against the tool's schema. */
export async function callTool(context: CallContext, name: ToolName, args: Args): Promise<ToolResult> {
  const { api, caller } = context;
  if (name === 'discover') {
    return text({
      api: api.prefix,
      collections: api.routes.filter((route) => context.readable(route.folder)).map((route) => ({
        name: route.name,
        folder: route.folder,
        alias: route.steps[route.steps.length - 1]?.alias ?? '',
        path: pathTemplate(route),
        actions: [...route.allowed_methods],
        descriptions: route.descriptions,
      })),
    });
  }
  const segments = segmentsOf(String(args.collection_path));
  const path = encoded(segments);
  switch (name) {
    case 'get_schema':
      return answerOf(await forward(caller, 'GET', `${path}/_schema`));
    case 'get_record':
      return answerOf(await forward(caller, 'GET', `${path}/${encodeURIComponent(String(args.key))}/${query(args, ['return_locales', 'fallback_locales', 'populate'])}`));
    case 'query_records': {
      const answer = await forward(caller, 'GET', `${path}/${query(args, ['limit', 'next', 'sort', 'fields', 'return_locales', 'search_locale', 'fallback_locales', 'populate', 'where'])}`);
      if (answer.status >= 400) return refusal(answer);
      return text(await truncated(context, routeOf(api, segments), answer.body));
    }
    case 'search_records': {
      const { collection_path: _path, next: _next, return_locales: _return, search_locale: _locale, ...body } = args;
      const answer = await forward(caller, 'POST', `${path}/_search${query(args, ['next', 'return_locales', 'search_locale'])}`, body);
      if (answer.status >= 400) return refusal(answer);
      return text(await truncated(context, routeOf(api, segments), answer.body));
    }
    case 'create_record':
      return answerOf(await forward(caller, 'POST', `${path}/`, args.key === undefined ? { data: args.data } : { data: args.data, key: args.key }));
    case 'update_record':
      return answerOf(await forward(caller, 'PUT', `${path}/${encodeURIComponent(String(args.key))}/`, { data: args.data }));
  }
}
