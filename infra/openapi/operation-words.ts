/**
 * What the reference calls an operation: a summary in words ("List resources", "Publish a
 * version") and the area it is tagged with, read from its method and path.
 */

/** Path segments that name an action on what the segment before them names. */
const ACTIONS: Readonly<Record<string, string>> = {
  publish: 'Publish',
  validate: 'Validate',
  toggle: 'Enable or disable',
  protection: 'Protect or unprotect',
  'bearer-token': 'Issue a bearer token for',
  'rotate-secret': 'Rotate the secret of',
  retry: 'Retry',
  schedule: 'Cancel the scheduled publish of',
  verify: 'Verify the hash chain of',
  sync_component: 'Sync the component fields of',
  batch: 'Set many permissions of',
  objects: 'Set the objects of a permission of',
};

/** Nouns whose singular is not the plural less its `s`. */
const SINGULAR: Readonly<Record<string, string>> = {
  'api-keys': 'API key',
  api: 'delivery API',
  apis: 'delivery API',
  folders: 'collection',
  'global-events': 'event',
  tree: 'tree',
  entries: 'entry',
  policies: 'policy',
};

/** Static words that carry no noun of their own (`model/versions`, `schema/tree`). */
const SKIP = new Set(['v1', 'model', 'schema', 'permissions', 'management-api', 'delivery-api', 'flux-api']);

const singular = (word: string): string => SINGULAR[word] ?? word.replace(/-/g, ' ').replace(/ies$/, 'y').replace(/s$/, '');
const plural = (word: string): string => (word === 'api' ? 'delivery APIs' : word === 'api-keys' ? 'API keys' : word === 'global-events' ? 'events of every environment' : word.replace(/-/g, ' '));
const article = (noun: string): string => (/^[aeiou]/i.test(noun) && !/^(user|uni)/i.test(noun) ? `an ${noun}` : `a ${noun}`);
const isParam = (segment: string): boolean => segment.startsWith(':') || segment.startsWith('*');
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The nearest noun before position `end`: the static segment a parameter belongs to. */
function nounBefore(segments: readonly string[], end: number): string {
  for (let i = end - 1; i >= 0; i--) {
    const segment = segments[i] as string;
    if (!isParam(segment) && !SKIP.has(segment) && !ACTIONS[segment]) return segment;
  }
  return 'item';
}

/** Operations whose words do not follow from their path. */
const NAMED: readonly (readonly [string, RegExp, string])[] = [
  ['GET', /^\/healthz$/, 'Liveness'],
  ['GET', /^\/readyz$/, 'Readiness'],
  ['GET', /^\/metrics$/, 'Prometheus metrics'],
  ['GET', /^\/openapi\.json$/, 'This OpenAPI document'],
  ['GET', /^\/docs\/$/, 'The interactive reference page'],
  ['GET', /^\/docs\/standalone\.js$/, "The reference page's script"],
  ['GET', /\/global-events\/verify\/$/, 'Verify the hash chain of the event log'],
  ['GET', /\/plan\/$/, 'Get the plan of an organization'],
  ['GET', /\/usage\/$/, 'Get the usage of an organization'],
  ['POST', /\/plan\/:code\/$/, 'Change the plan of an organization'],
  ['GET', /\/(collections|folders)\/tree\/$/, 'List the collection tree'],
  ['POST', /\/(collections|folders)\/tree\/$/, 'Create a collection'],
  ['GET', /\/schema\/tree\/$/, 'List the fields of a version'],
  ['POST', /\/schema\/tree\/$/, 'Create a field'],
  ['GET', /\/api\/:api\/(collections|folders)\/$/, 'List the connections of a delivery API'],
  ['POST', /\/api\/:api\/(collections|folders)\/$/, 'Connect a collection to a delivery API'],
  ['GET', /\/api\/:api\/(collections|folders)\/:collection\/$/, 'Get a connection'],
  ['PUT', /\/api\/:api\/(collections|folders)\/:collection\/$/, 'Update a connection'],
  ['DELETE', /\/api\/:api\/(collections|folders)\/:collection\/$/, 'Disconnect a collection from a delivery API'],
  ['GET', /\/roles\/:role\/permissions\/$/, 'List the permissions of a role'],
  ['POST', /\/roles\/:role\/permissions\/$/, 'Add a permission to a role'],
  ['DELETE', /\/roles\/:role\/permissions\/$/, 'Remove permissions from a role'],
  ['GET', /\/permissions\/objects\/$/, "List the objects of a role's permission"],
  ['POST', /\/permissions\/objects\/$/, "Add objects to a role's permission"],
  ['DELETE', /\/permissions\/objects\/$/, "Remove objects from a role's permission"],
  ['DELETE', /\/bearer-token\/$/, 'Revoke the bearer token of an API key'],
  ['GET', /^\/:env\/:prefix\//, 'Read a collection (a cursor page), one resource, or a reserved endpoint'],
  ['OPTIONS', /^\/:env\/:prefix\//, 'CORS preflight'],
];

/** `an API key` → `a management API key` on the management permissions' paths, `a delivery ...` on the delivery ones. */
function qualified(words: string, path: string): string {
  const side = /\/permissions\/management-api\//.test(path) ? 'management' : /\/permissions\/(delivery|flux)-api\//.test(path) ? 'delivery' : null;
  if (side === null) return words;
  return words.replace(/\b(an|a) (API key|role)/, (_, _a: string, noun: string) => `a ${side} ${noun}`).replace(/\b(API keys|roles)$/, `${side} $1`);
}

/** "List resources", "Get a resource", "Create a locale", "Publish a version". */
export function summaryOf(method: string, path: string): string {
  return qualified(plainSummary(method, path), path);
}

function plainSummary(method: string, path: string): string {
  for (const [m, pattern, words] of NAMED) if (m === method && pattern.test(path)) return words;
  const segments = path.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  if (ACTIONS[last] !== undefined) return `${ACTIONS[last]} ${article(singular(nounBefore(segments, segments.length - 1)))}`;
  if (last === 'data') return `Get the data of ${article(singular(nounBefore(segments, segments.length - 1)))}`;
  if (last === 'stream') return `Stream ${plural(nounBefore(segments, segments.length - 1))}`;
  if (last === 'field' || last === 'collection' || last === 'folder') {
    const verb = { GET: 'Get', PUT: 'Update', PATCH: 'Update', DELETE: 'Delete' }[method] ?? capital(method.toLowerCase());
    return `${verb} a ${last === 'field' ? 'field' : 'collection'} of the tree`;
  }
  if (isParam(last)) {
    const noun = singular(nounBefore(segments, segments.length - 1));
    const verb = { GET: 'Get', PUT: 'Update', PATCH: 'Update part of', DELETE: 'Delete' }[method] ?? capital(method.toLowerCase());
    return `${verb} ${article(noun)}`;
  }
  const noun = nounBefore(segments, segments.length);
  if (method === 'GET') return noun.endsWith('s') || noun === 'api' ? `List ${plural(noun)}` : `Get the ${noun.replace(/-/g, ' ')}`;
  if (method === 'POST') return `Create ${article(singular(noun))}`;
  if (method === 'PUT') return `Create or update ${article(singular(noun))}`;
  if (method === 'DELETE') return `Delete ${plural(noun)}`;
  return `${capital(method.toLowerCase())} ${plural(noun)}`;
}

/** The areas of the reference, first match wins. */
const AREAS: readonly (readonly [RegExp, string])[] = [
  [/^\/(healthz|readyz|metrics|openapi\.json|docs)/, 'Operations'],
  [/^\/:env\/:prefix\//, 'Delivery'],
  [/\/(resources|revisions)\//, 'Content'],
  [/\/(model|schema|sync_component)\//, 'Schemas and fields'],
  [/\/components\//, 'Components'],
  [/\/api\//, 'Delivery APIs'],
  [/\/(collections|folders)\//, 'Collections'],
  [/\/permissions\/[^/]+\/api-keys\//, 'API keys'],
  [/\/permissions\//, 'Roles and permissions'],
  [/\/locales\//, 'Locales'],
  [/\/webhooks\//, 'Webhooks'],
  [/\/schedules\//, 'Scheduled publishing'],
  [/(\/events\/|\/global-events\/|\/audit\/)/, 'Audit log'],
  [/^\/(organizations|plans|regions)\//, 'Organizations, projects and environments'],
];

export function areaOf(path: string): string {
  for (const [pattern, area] of AREAS) if (pattern.test(path)) return area;
  return 'Other';
}
