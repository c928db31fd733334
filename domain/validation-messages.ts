import type { ErrorObject } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';

/** The known name nearest to `name` when it is close enough to be a slip of the keyboard, else null. */
export function nearestName(name: string, known: readonly string[]): string | null {
  if (known.length === 0 || name === '') return null;
  const best = closest(name, [...known]);
  // Two edits (a swapped pair of letters) from a name of four letters or more; one from a shorter one.
  const limit = name.length <= 3 ? 1 : Math.max(2, Math.floor(name.length / 3));
  return distance(name.toLowerCase(), best.toLowerCase()) <= limit ? best : null;
}

/** ` (did you mean title?)` when a known name is near `name`, else nothing. */
export function didYouMean(name: string, known: readonly string[]): string {
  const nearest = nearestName(name, known);
  return nearest === null ? '' : ` (did you mean ${nearest}?)`;
}

/** The properties a schema names, for suggestions (ajv's `verbose` errors carry the schema). */
function knownProperties(error: ErrorObject): string[] {
  const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return parent?.properties ? Object.keys(parent.properties) : [];
}

/**
 * What an ajv error says, made to say what to do: an enum refusal lists the allowed values,
 * an unknown property suggests the nearest known one. `unknown` is the wording of an unknown
 * property (`is not allowed` for request bodies, `unknown field <name>` for content data).
 */
export function validationMessage(error: ErrorObject, unknown: (name: string) => string = () => 'is not allowed'): string {
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return `must be one of: ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  if (error.keyword === 'additionalProperties') {
    const name = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    return `${unknown(name)}${didYouMean(name, knownProperties(error))}`;
  }
  return error.message ?? 'is invalid';
}
