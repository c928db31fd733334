/**
 * The current time as ISO 8601 text (`new Date().toISOString()`), made once per millisecond:
 * a create asked for it in its command context and again when its answer counted toward the
 * month's usage, and `toISOString` was about 1% of the main thread's busy time per create
 * (docs/decisions/0323). Creates arrive in bursts, several within one millisecond, which then
 * share the text. The text is the one `new Date(ms).toISOString()` gives for the same millisecond.
 */
let lastMs = Number.NaN;
let lastText = '';

export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}

/** `new Date().toISOString()`, through `isoAt`. */
export const isoNow = (): string => isoAt(Date.now());
