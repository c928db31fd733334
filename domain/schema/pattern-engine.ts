import { RE2 } from 're2-wasm';

/**
 * The regular-expression dialect of `meta.pattern` and of every generated schema: RE2, which
 * matches in linear time, so no pattern can stall the process (docs/decisions/0033). RE2 has no
 * lookaround or backreferences; patterns that use them are refused when the field is defined.
 */
export type PatternEngine = {
  (pattern: string, flags: string): { test(input: string): boolean };
  /** How generated standalone code would name the engine (ajv's RegExpEngine shape). */
  readonly code: string;
};

export const re2: PatternEngine = Object.assign((pattern: string, flags: string) => new RE2(pattern, flags.includes('u') ? flags : `${flags}u`), {
  code: 'new (require("re2-wasm").RE2)',
});

/** Whether the pattern compiles in the engine that will run it. */
export function compiles(pattern: string): boolean {
  try {
    re2(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
