/**
 * The recipes of a guide: each fenced `sh` block is a step run by the guide test, and the
 * fenced `json` or `text` block right after it (if any) is the answer the step gives.
 */
export type Step = { readonly line: number; readonly commands: string; readonly answer: { readonly kind: 'json' | 'text'; readonly body: string } | null };

export function stepsOf(markdown: string): Step[] {
  const blocks = [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] ?? '',
    body: m[2] ?? '',
    line: markdown.slice(0, m.index).split('\n').length,
  }));
  const steps: Step[] = [];
  blocks.forEach((block, i) => {
    if (block.lang !== 'sh') return;
    const next = blocks[i + 1];
    const answer = next && (next.lang === 'json' || next.lang === 'text') ? { kind: next.lang as 'json' | 'text', body: next.body } : null;
    steps.push({ line: block.line, commands: block.body, answer });
  });
  return steps;
}

/** `…` in an answer stands for any value (JSON) or any text (a line). */
const ANY = '…';

/**
 * Whether `actual` has what `expected` shows: every key an expected object names (with a
 * matching value), arrays item by item and of the same length, `"…"` for any value. Null
 * when it does, else where it differs.
 */
export function jsonMismatch(expected: unknown, actual: unknown, at = '$'): string | null {
  if (expected === ANY) return null;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${at}: expected an array, got ${JSON.stringify(actual)}`;
    if (expected.length !== actual.length) return `${at}: expected ${expected.length} items, got ${actual.length}`;
    for (const [i, item] of expected.entries()) {
      const miss = jsonMismatch(item, actual[i], `${at}[${i}]`);
      if (miss) return miss;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${at}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      if (!(key in actual)) return `${at}.${key}: missing`;
      const miss = jsonMismatch(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
      if (miss) return miss;
    }
    return null;
  }
  if (typeof expected === 'string' && expected.includes(ANY) && typeof actual === 'string') {
    return textLineMatches(expected, actual) ? null : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
  return expected === actual ? null : `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function textLineMatches(expected: string, actual: string): boolean {
  return new RegExp(`^${expected.split(ANY).map(escape).join('.*')}$`).test(actual);
}

/** Each non-empty line of `expected` must match a line of `actual`, in order (`…` for any text). */
export function textMismatch(expected: string, actual: string): string | null {
  const lines = actual.split('\n').map((l) => l.trimEnd());
  let from = 0;
  for (const want of expected.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '')) {
    const found = lines.findIndex((line, i) => i >= from && textLineMatches(want, line));
    if (found < 0) return `no line matches ${JSON.stringify(want)}`;
    from = found + 1;
  }
  return null;
}

/** Every JSON value in `output` (a step may print several, one after the other). */
export function jsonValues(output: string): unknown[] {
  const values: unknown[] = [];
  let rest = output.trim();
  while (rest !== '') {
    let parsed = false;
    // The shortest prefix that parses is one value (jq prints each on its own lines).
    for (let end = rest.indexOf('\n'); ; end = rest.indexOf('\n', end + 1)) {
      const piece = end < 0 ? rest : rest.slice(0, end);
      try {
        values.push(JSON.parse(piece));
        rest = end < 0 ? '' : rest.slice(end + 1).trim();
        parsed = true;
        break;
      } catch {
        if (end < 0) break;
      }
    }
    if (!parsed) throw new Error(`not JSON: ${rest.slice(0, 200)}`);
  }
  return values;
}
