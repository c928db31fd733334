/** Where and as whom an agent's tool call is replayed against the delivery interface. */
export type Caller = {
  /** The delivery server's own origin, e.g. `http://127.0.0.1:3001`. */
  readonly origin: string;
  readonly env: string;
  readonly prefix: string;
  /** Headers that carry the caller's credentials onto the replayed request. */
  readonly headers: Readonly<Record<string, string>>;
};

export type Answer = { readonly status: number; readonly body: unknown };

/**
 * Replays a tool call as a request to the delivery interface's own endpoint of the same API
 * prefix, so authentication, allowed methods, filters and search behave exactly as they do
 * for REST clients (docs/decisions/0120).
 */
export async function forward(caller: Caller, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Answer> {
  const url = `${caller.origin}/${encodeURIComponent(caller.env)}/${encodeURIComponent(caller.prefix)}/${path}`;
  const response = await fetch(url, {
    method,
    headers: { ...caller.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed };
}

/** The origin a request reached this server on, for replaying calls to the same server. */
export function ownOrigin(localAddress: string | undefined, localPort: number | undefined): string {
  const address = !localAddress || localAddress === '::' || localAddress === '0.0.0.0' ? '127.0.0.1' : localAddress.replace(/^::ffff:/, '');
  return `http://${address.includes(':') ? `[${address}]` : address}:${localPort ?? 80}`;
}
