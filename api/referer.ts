/** Host part only of the Referer header: what a write's metadata keeps of it. */
export function refererHost(req: { header(name: string): string | undefined }): string | null {
  const referer = req.header('referer');
  if (!referer) return null;
  try {
    return new URL(referer).host || null;
  } catch {
    return null;
  }
}
