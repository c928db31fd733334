import { OPERATORS, type Condition, type ConditionValue, type Operator, type QueryScalar } from '../../../projections/delivery-query.js';
import type { ValueKind } from './catalog.js';
import { resolveField, unknownField, type FieldContext } from './fields.js';

/** A condition, or why it is refused (a sentence naming the field, operator or value). */
export type Checked = { readonly condition: Condition } | { readonly error: string };

const OPERATOR_SET: ReadonlySet<string> = new Set(OPERATORS);
const TEXT_OPERATORS: ReadonlySet<Operator> = new Set(['ieq', 'iin', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith']);
const RANGE_OPERATORS: ReadonlySet<Operator> = new Set(['gt', 'gte', 'lt', 'lte', 'between']);
export const MAX_LIST_VALUES = 100;

/** `title__eq` → field `title`, operator `eq` (split at the last `__`). */
export function splitLeaf(leaf: string): { field: string; op: string } | null {
  const at = leaf.lastIndexOf('__');
  if (at <= 0) return null;
  return { field: leaf.slice(0, at), op: leaf.slice(at + 2) };
}

const isScalar = (value: unknown): value is QueryScalar =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** Whether a scalar fits a field of this kind. */
function fits(value: QueryScalar, kind: ValueKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'any':
      return true;
    default:
      return false;
  }
}

const describe = (kind: ValueKind): string => (kind === 'any' ? 'a string, number or boolean' : kind === 'integer' ? 'an integer' : `a ${kind}`);

function checkValue(op: Operator, value: unknown, kind: ValueKind, items: ValueKind | null): string | null {
  if (op === 'exists' || op === 'isnull') return typeof value === 'boolean' ? null : 'must be true or false';
  if (op === 'includes') {
    if (kind !== 'array' && kind !== 'any') return 'applies to array fields only';
    const itemKind = items ?? 'any';
    return isScalar(value) && fits(value, itemKind) ? null : `must be ${describe(itemKind)}`;
  }
  if (kind === 'object' || kind === 'array') return `does not apply to ${kind} fields${kind === 'array' ? ' (use includes)' : ''}`;
  if (TEXT_OPERATORS.has(op) && kind !== 'string' && kind !== 'any') return 'applies to text fields only';
  if (RANGE_OPERATORS.has(op) && kind === 'boolean') return 'does not apply to boolean fields';
  const expected = TEXT_OPERATORS.has(op) ? 'string' : kind;
  const scalar = (v: unknown): boolean => isScalar(v) && fits(v, expected) && !(RANGE_OPERATORS.has(op) && typeof v === 'boolean');
  if (op === 'in' || op === 'nin' || op === 'iin') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST_VALUES) return `must be a list of 1 to ${MAX_LIST_VALUES} values`;
    return value.every(scalar) ? null : `must hold values that are each ${describe(expected)}`;
  }
  if (op === 'between') {
    if (!Array.isArray(value) || value.length !== 2) return 'must be a pair [low, high]';
    if (!value.every(scalar) || typeof value[0] !== typeof value[1]) return `must be a pair of values that are each ${describe(expected)}`;
    return null;
  }
  return scalar(value) ? null : `must be ${describe(expected)}`;
}

/** One leaf `{"<field>__<op>": value}`, checked against the collection's fields. */
export function checkCondition(leaf: string, value: unknown, context: FieldContext): Checked {
  const parts = splitLeaf(leaf);
  if (!parts) return { error: `${leaf}: expected <field>__<operator>` };
  if (!OPERATOR_SET.has(parts.op)) return { error: `${leaf}: unknown operator ${parts.op}` };
  const resolved = resolveField(parts.field, context);
  if (!resolved) return { error: `${leaf}: ${unknownField(parts.field, context)}` };
  const op = parts.op as Operator;
  const problem = checkValue(op, value, resolved.kind, resolved.items);
  if (problem) return { error: `${leaf}: the value ${problem}` };
  return { condition: { kind: 'condition', field: resolved.ref, op, value: value as ConditionValue } };
}

/** The kind a GET value is read as for this leaf (null when the leaf itself is refused later). */
export function kindForText(leaf: string, context: FieldContext): { op: string; kind: ValueKind } | null {
  const parts = splitLeaf(leaf);
  const resolved = parts ? resolveField(parts.field, context) : null;
  if (!parts || !resolved) return null;
  if (parts.op === 'exists' || parts.op === 'isnull') return { op: parts.op, kind: 'boolean' };
  if (parts.op === 'includes') return { op: parts.op, kind: resolved.items ?? 'any' };
  if (TEXT_OPERATORS.has(parts.op as Operator)) return { op: parts.op, kind: 'string' };
  return { op: parts.op, kind: resolved.kind };
}
