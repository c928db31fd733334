/** What a cut left of a payload: the payload with its long texts shortened, and which field paths were cut. */
export type Truncated = { readonly data: unknown; readonly truncated: readonly string[] };

const cut = (text: string, limit: number): string => text.slice(0, limit);

/**
 * Shortens the `text` fields at `paths` (dot paths of the schema) to `limit` characters. A
 * path steps into arrays item by item; a localizable value (an object of locale → text) has
 * each of its translations shortened. Returns a copy; the input is not changed.
 */
export function truncateTexts(data: unknown, paths: readonly string[], limit: number): Truncated {
  const truncated = new Set<string>();
  const visit = (value: unknown, segments: readonly string[], path: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, segments, path));
    if (segments.length === 0) {
      if (typeof value === 'string') {
        if (value.length <= limit) return value;
        truncated.add(path);
        return cut(value, limit);
      }
      if (value !== null && typeof value === 'object') {
        const copy: Record<string, unknown> = {};
        for (const [locale, text] of Object.entries(value)) {
          if (typeof text === 'string' && text.length > limit) {
            truncated.add(path);
            copy[locale] = cut(text, limit);
          } else copy[locale] = text;
        }
        return copy;
      }
      return value;
    }
    if (value === null || typeof value !== 'object') return value;
    const [head, ...rest] = segments as [string, ...string[]];
    if (!Object.prototype.hasOwnProperty.call(value, head)) return value;
    return { ...(value as Record<string, unknown>), [head]: visit((value as Record<string, unknown>)[head], rest, path) };
  };
  let result = data;
  for (const path of paths) result = visit(result, path.split('.'), path);
  return { data: result, truncated: [...truncated] };
}
