import { DomainError } from '../../../domain/errors.js';
import { GROUPS, type GroupKind, type WhereNode } from '../../../projections/delivery-query.js';
import { boundWhere } from './bounds.js';
import type { ValueKind } from './catalog.js';
import { checkCondition, kindForText } from './condition.js';
import type { FieldContext } from './fields.js';

const GROUP_SET: ReadonlySet<string> = new Set(GROUPS);
const LIST_OPERATORS: ReadonlySet<string> = new Set(['in', 'nin', 'iin', 'between']);

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

class TreeParser {
  readonly errors: string[] = [];

  constructor(private readonly context: FieldContext) {}

  /** An object of groups and leaves; several keys are all of them. */
  node(value: unknown, at: string): WhereNode | null {
    if (!isObject(value)) {
      this.errors.push(`${at}: must be an object of all_of / any_of / none_of groups and <field>__<operator> conditions`);
      return null;
    }
    const parts: WhereNode[] = [];
    for (const [name, item] of Object.entries(value)) {
      if (GROUP_SET.has(name)) {
        const group = this.group(name as GroupKind, item, `${at}.${name}`);
        if (group) parts.push(group);
        continue;
      }
      const checked = checkCondition(name, item, this.context);
      if ('error' in checked) this.errors.push(`${at}: ${checked.error}`);
      else parts.push(checked.condition);
    }
    if (parts.length === 1 && Object.keys(value).length === 1) return parts[0] ?? null;
    return { kind: 'all_of', items: parts };
  }

  group(kind: GroupKind, value: unknown, at: string): WhereNode | null {
    if (!Array.isArray(value)) {
      this.errors.push(`${at}: must be a list of conditions and groups`);
      return null;
    }
    const items = value.map((item, i) => this.node(item, `${at}[${i}]`)).filter((n): n is WhereNode => n !== null);
    return { kind, items };
  }
}

/**
 * The `where` tree of a request body: `{"$": {"all_of": [{"title__eq": "Hello"}, {"any_of": [...]}]}}`.
 * `$` is the queried collection; any other root key (a join alias) is refused here.
 * Every refused part is named in one 422.
 */
export function parseWhereTree(where: unknown, context: FieldContext, aliases: ReadonlySet<string> = new Set()): WhereNode | undefined {
  if (where === undefined || where === null) return undefined;
  const parser = new TreeParser(context);
  let root: WhereNode | null = null;
  if (!isObject(where)) parser.errors.push('must be an object keyed by "$"');
  else {
    for (const [key, value] of Object.entries(where)) {
      if (key === '$') root = parser.node(value, '$');
      else if (!aliases.has(key)) parser.errors.push(`${key}: unknown collection alias (the queried collection is "$")`);
    }
  }
  if (parser.errors.length > 0) throw new DomainError('validation_error', 'Invalid where filter.', { where: parser.errors });
  return root ?? undefined;
}

/** The tree of one joined collection (`where.<alias>`), checked against that collection's fields. */
export function parseWhereNode(value: unknown, context: FieldContext, label: string): WhereNode {
  const parser = new TreeParser(context);
  const node = parser.node(value, label);
  if (parser.errors.length > 0 || node === null) throw new DomainError('validation_error', 'Invalid where filter.', { where: parser.errors });
  return node;
}

function fromText(text: string, kind: ValueKind): unknown {
  if ((kind === 'number' || kind === 'integer') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (kind === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

export const WHERE_PREFIX = 'where__';

/**
 * GET filters `where__<field>__<operator>=value`, all of them at once: lists (`in`, `nin`,
 * `iin`, `between`) are comma-separated, numbers and booleans are read per the field's kind.
 */
export function parseWhereParams(query: Record<string, unknown>, context: FieldContext): WhereNode | undefined {
  const values = Object.create(null) as Record<string, unknown>;
  const detail: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(query)) {
    if (!name.startsWith(WHERE_PREFIX)) continue;
    const leaf = name.slice(WHERE_PREFIX.length);
    if (typeof raw !== 'string') {
      detail[name] = ['must be given once'];
      continue;
    }
    const reading = kindForText(leaf, context);
    values[leaf] =
      reading && LIST_OPERATORS.has(reading.op)
        ? raw.split(',').map((part) => fromText(part, reading.kind))
        : fromText(raw, reading?.kind ?? 'string');
  }
  boundWhere({ $: values });
  const items: WhereNode[] = [];
  for (const [leaf, value] of Object.entries(values)) {
    const checked = checkCondition(leaf, value, context);
    if ('error' in checked) detail[`${WHERE_PREFIX}${leaf}`] = [checked.error];
    else items.push(checked.condition);
  }
  if (Object.keys(detail).length > 0) throw new DomainError('validation_error', 'Invalid where filter.', detail);
  if (items.length === 0) return undefined;
  return items.length === 1 ? items[0] : { kind: 'all_of', items };
}
