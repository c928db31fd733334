/** `url` (a request's path and query, absolute from `origin`) with some query parameters replaced or (null) removed: a list's `next` and `previous`. */
export function urlWith(url: string, origin: string, changes: Readonly<Record<string, string | null>>): string {
  const link = new URL(url, origin);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) link.searchParams.delete(name);
    else link.searchParams.set(name, value);
  }
  return link.toString();
}
