import { DomainError } from '../../../domain/errors.js';
import { GROUPS } from '../../../projections/delivery-query.js';

/**
 * The cost bounds of a delivery filter (docs/decisions/0333), checked before a filter is parsed
 * or run, on every path that reads a `where` (GET lists, `_search` bodies, and the agent
 * tools, which replay as those requests).
 */
export const WHERE_LIMITS = {
  /** Conditions (leaves) in one request's `where`, every root (join aliases too) together. */
  max_where_conditions: 50,
  /** Characters of one text operand (each value of a list counts alone). */
  max_text_operand_length: 1000,
  /** Levels of groups (`all_of`, `any_of`, `none_of`) nested in one another. */
  max_where_depth: 8,
} as const;

const GROUP_SET: ReadonlySet<string> = new Set(GROUPS);
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

type Tally = { conditions: number; depth: number; longText: string | null };

function walk(node: unknown, depth: number, tally: Tally): void {
  if (!isObject(node)) return;
  for (const [name, value] of Object.entries(node)) {
    if (GROUP_SET.has(name)) {
      tally.depth = Math.max(tally.depth, depth + 1);
      if (tally.depth > WHERE_LIMITS.max_where_depth) return;
      if (Array.isArray(value)) for (const item of value) walk(item, depth + 1, tally);
      continue;
    }
    tally.conditions++;
    const texts = Array.isArray(value) ? value : [value];
    if (tally.longText === null && texts.some((t) => typeof t === 'string' && t.length > WHERE_LIMITS.max_text_operand_length)) tally.longText = name;
  }
}

/**
 * 422 validation_error naming the limit when `where` (a body's tree keyed by `$` and join
 * aliases) holds too many conditions, nests groups too deep or carries a text operand too long.
 */
export function boundWhere(where: unknown, label = 'where'): void {
  if (!isObject(where)) return;
  const tally: Tally = { conditions: 0, depth: 0, longText: null };
  for (const root of Object.values(where)) walk(root, 0, tally);
  const problems: string[] = [];
  const { max_where_conditions: conditions, max_text_operand_length: length, max_where_depth: depth } = WHERE_LIMITS;
  if (tally.conditions > conditions) problems.push(`holds ${tally.conditions} conditions; max_where_conditions is ${conditions}`);
  if (tally.depth > depth) problems.push(`nests groups deeper than max_where_depth, ${depth}`);
  if (tally.longText !== null) problems.push(`${tally.longText}: a text operand is longer than max_text_operand_length, ${length} characters`);
  if (problems.length > 0) throw new DomainError('validation_error', 'The filter exceeds a query limit.', { [label]: problems });
}
