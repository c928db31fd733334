import type { DeliveryApi, DeliveryRoute } from '../routing.js';

/** The agent tools of the product: five reads, and two writes for callers that may write. */
export const READ_TOOLS = ['discover', 'get_schema', 'get_record', 'query_records', 'search_records'] as const;
export const WRITE_TOOLS = ['create_record', 'update_record'] as const;
export type ToolName = (typeof READ_TOOLS)[number] | (typeof WRITE_TOOLS)[number];

export type ToolDefinition = {
  readonly name: ToolName;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object'; readonly properties: Record<string, unknown>; readonly required?: readonly string[]; readonly additionalProperties: false };
};

/** A collection's address below the prefix, parent keys as placeholders: `courses/:courses_key/modules`. */
export const pathTemplate = (route: DeliveryRoute): string =>
  route.steps.flatMap((s) => (s.keyed ? [s.alias, `:${s.alias}_key`] : [s.alias])).join('/');

const COLLECTION_PATH = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.~-]*(/[A-Za-z0-9][A-Za-z0-9_.~-]*)*$',
  description: 'The collection path below the API prefix as `discover` lists it, with parent keys filled in (e.g. `articles`, `courses/c1/modules`).',
};
const KEY = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9][A-Za-z0-9_.~-]*$' };
const LOCALES = { type: 'string', maxLength: 1000, description: 'Comma-separated locale codes to return.' };
const WHERE = { type: 'object', description: 'A filter tree rooted at "$" with all_of / any_of / none_of groups of {"<field>__<operator>": value} conditions.' };
const SORT = { type: 'array', items: { type: 'string', maxLength: 255 }, maxItems: 20, description: 'Fields to sort by; `-` before a field sorts descending, `_sys.` reaches system fields.' };
const FIELDS = { type: 'array', items: { type: 'string', maxLength: 255 }, maxItems: 100, description: 'Data fields to return.' };
const LIMIT = { type: 'integer', minimum: 1, maximum: 100 };
const NEXT = { type: 'string', maxLength: 4096, description: 'The cursor of the next page, from the previous answer.' };

/** Whether the caller's key may do an action on a collection (its role). */
export type MayOn = (folder: string, action: 'read' | 'create' | 'update') => boolean;

const actionOf = (method: string): 'read' | 'create' | 'update' => (method === 'create' || method === 'update' ? method : 'read');

/** One line per collection whose connection allows `method` and the caller's role the action: its path and the connection's description. */
function lines(api: DeliveryApi, may: MayOn, method: string, text: (route: DeliveryRoute) => string): string {
  const routes = api.routes.filter((r) => r.allowed_methods.includes(method) && may(r.folder, actionOf(method)));
  if (routes.length === 0) return ' No collection of this API allows it.';
  return `\n${routes.map((r) => `- ${pathTemplate(r)} (${r.name}): ${text(r)}`).join('\n')}`;
}

/** The tool list of an API as a caller sees it now; descriptions come from the connections the caller's role reaches. */
export function toolCatalog(api: DeliveryApi, mayWrite: boolean, may: MayOn = () => true): ToolDefinition[] {
  const tools: ToolDefinition[] = [
    {
      name: 'discover',
      description: `Lists the collections reachable through the API "${api.prefix}": names, paths, allowed actions and descriptions.`,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    },
    {
      name: 'get_schema',
      description: `Returns the JSON schema of a collection's records, with its searchable fields.${lines(api, may, 'get_many', (r) => r.descriptions.schema)}`,
      inputSchema: { type: 'object', properties: { collection_path: COLLECTION_PATH }, required: ['collection_path'], additionalProperties: false },
    },
    {
      name: 'get_record',
      description: `Returns one record by key.${lines(api, may, 'get_one', (r) => r.descriptions.get_one)}`,
      inputSchema: {
        type: 'object',
        properties: { collection_path: COLLECTION_PATH, key: KEY, return_locales: LOCALES, fallback_locales: { type: 'boolean' }, populate: { type: 'string', maxLength: 1000 } },
        required: ['collection_path', 'key'],
        additionalProperties: false,
      },
    },
    {
      name: 'query_records',
      description: `Lists records page by page, filtered and sorted.${lines(api, may, 'get_many', (r) => r.descriptions.get_many)}`,
      inputSchema: {
        type: 'object',
        properties: {
          collection_path: COLLECTION_PATH,
          where: { type: 'object', description: 'Conditions joined by AND, as {"<field>__<operator>": value}; e.g. {"title__icontains": "news"}.' },
          sort: SORT,
          fields: FIELDS,
          limit: LIMIT,
          next: NEXT,
          return_locales: LOCALES,
          search_locale: { type: 'string', maxLength: 50 },
          fallback_locales: { type: 'boolean' },
          populate: { type: 'string', maxLength: 1000 },
        },
        required: ['collection_path'],
        additionalProperties: false,
      },
    },
    {
      name: 'search_records',
      description: `Searches records: full text, vector (semantic), hybrid or vector-boosted, with filters.${lines(api, may, 'get_many', (r) => r.descriptions.search)}`,
      inputSchema: {
        type: 'object',
        properties: {
          collection_path: COLLECTION_PATH,
          search_mode: { type: 'string', enum: ['text', 'vector', 'vector_boosted', 'hybrid'] },
          find_text: { type: 'object', description: '{query, fields?, threshold?}' },
          find_phrase: { type: 'object', description: '{query, fields?}' },
          vector_search: { type: 'object', description: '{query, fields?, top_k?, similarity_threshold?}' },
          vector_field_search: { type: 'object', description: '{field, query_vector, top_k?, similarity_threshold?}' },
          hybrid_config: { type: 'object' },
          vector_boost_config: { type: 'object' },
          where: WHERE,
          sort: SORT,
          fields: FIELDS,
          limit: LIMIT,
          next: NEXT,
          return_locales: LOCALES,
          search_locale: { type: 'string', maxLength: 50 },
        },
        required: ['collection_path'],
        additionalProperties: false,
      },
    },
  ];
  if (!mayWrite) return tools;
  return [
    ...tools,
    {
      name: 'create_record',
      description: `Creates and publishes a record (needs a key with the create grant).${lines(api, may, 'create', () => 'accepts new records')}`,
      inputSchema: {
        type: 'object',
        properties: { collection_path: COLLECTION_PATH, data: { type: 'object' }, key: { ...KEY, description: 'An optional external id that makes the create idempotent.' } },
        required: ['collection_path', 'data'],
        additionalProperties: false,
      },
    },
    {
      name: 'update_record',
      description: `Replaces a record's data and publishes it (needs a key with the update grant).${lines(api, may, 'update', () => 'accepts replacements')}`,
      inputSchema: {
        type: 'object',
        properties: { collection_path: COLLECTION_PATH, key: KEY, data: { type: 'object' } },
        required: ['collection_path', 'key', 'data'],
        additionalProperties: false,
      },
    },
  ];
}
