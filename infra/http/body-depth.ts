import { DomainError } from '../../domain/errors.js';

/**
 * How deeply a request body may nest objects and arrays (docs/decisions/0032). Deeper
 * bodies are refused before anything reads them recursively: structured cloning, JSON
 * schema validation, or the read store's JSON functions (SQLite stops at 1,000 levels).
 */
export const MAX_BODY_DEPTH = 100;

/** Whether `value` holds a number JSON cannot carry back: `1e309` parses to Infinity and would be stored as null. */
export function holdsNonFiniteNumber(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'number' && !Number.isFinite(current)) return true;
    if (current !== null && typeof current === 'object') for (const child of Object.values(current)) stack.push(child);
  }
  return false;
}

/** Whether `value` nests deeper than `limit` levels; iterative, so any depth is safe to check. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Refuses request bodies nested deeper than MAX_BODY_DEPTH, or holding a non-finite number, with 422 validation_error. */
export function bodyDepthGuard(req: { readonly body?: unknown }, _res: unknown, next: (error?: unknown) => void): void {
  if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) {
    next(new DomainError('validation_error', `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`, { body: [`at most ${MAX_BODY_DEPTH} levels of nesting`] }));
    return;
  }
  if (holdsNonFiniteNumber(req.body)) {
    next(new DomainError('validation_error', 'The request body holds a number outside the range JSON can store.', { body: ['numbers must be finite'] }));
    return;
  }
  next();
}
