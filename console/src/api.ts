// The console's only way to the service: the public management endpoints, with the signed-in
// user's credential from this tab's session storage (docs/decisions/0358).

export type Session = { readonly credential: string; readonly env: string };
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };
export type Json = Record<string, unknown>;

const STORE = 'cms-console-session';

export function loadSession(): Session | null {
  const raw = sessionStorage.getItem(STORE);
  return raw ? (JSON.parse(raw) as Session) : null;
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(STORE, JSON.stringify(session));
  else sessionStorage.removeItem(STORE);
}

/** A refused request: the server's `{message, error_code, detail}`. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly detail: unknown,
  ) {
    super(message);
  }
}

/** Called with the server's reason when a request answers 401: the app returns to the sign-in form. */
let onUnauthorized: (reason: string) => void = () => undefined;
export const whenUnauthorized = (handler: (reason: string) => void): void => {
  onUnauthorized = handler;
};

/** A path from a `next`/`previous` link (absolute URLs are followed on this origin, as given). */
const local = (url: string): string => (url.startsWith('http') ? new URL(url).pathname + new URL(url).search : url);

export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** One request with an explicit credential (the sign-in check uses it before the session exists). */
export async function request<T>(credential: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(local(path), {
    method,
    headers: { authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = (parsed ?? {}) as { message?: string; error_code?: string; detail?: unknown };
    throw new ApiError(error.message ?? `${response.status} ${response.statusText}`, response.status, error.error_code ?? 'error', error.detail ?? null);
  }
  return parsed as T;
}

/** A request as the signed-in user; a 401 signs out with the server's reason. */
export async function api<T = Json>(method: string, path: string, body?: unknown): Promise<T> {
  const session = loadSession();
  try {
    return await request<T>(session?.credential ?? '', method, path, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) onUnauthorized(error.message);
    throw error;
  }
}

/** A path under the signed-in environment: `/v1/{env}{path}`. */
export const env = (path: string): string => `/v1/${loadSession()?.env ?? ''}${path}`;

/** The delivery interface's origin, as the service put it in the page. */
export const deliveryOrigin = (): string => document.querySelector<HTMLMetaElement>('meta[name="delivery-origin"]')?.content ?? '';
