import type { Doc } from '../projections/ports.js';

/**
 * A delivery request as the pipeline's parse step read it (infra/http/delivery-server.ts), and
 * the answers its handlers return: nothing of node:http or of a framework. Handlers are
 * functions of an ask; the server writes what they return.
 */
export type DeliveryAsk = {
  readonly method: string;
  /** The request target as sent, path and query (what a Secure signature covers). */
  readonly url: string;
  /** The query string, parsed as node:querystring does (a repeated name gives an array). */
  readonly query: Record<string, unknown>;
  /** A header by lower-case name. */
  header(name: string): string | undefined;
  /** The parsed JSON body, undefined without one. */
  readonly body: unknown;
  /** The bytes the body was parsed from (a Secure signature covers them). */
  readonly rawBody: Buffer | undefined;
  /** Why the body could not be read or parsed: reported after authentication, so an anonymous write still gets its 401. */
  readonly bodyError: unknown;
  /** `http://host` of this request: the base of the URLs an answer names. */
  readonly origin: string;
  /** The caller's address (the socket's: no proxy is trusted). */
  readonly remoteAddress: string | null;
  /** This request's own URL with some query parameters replaced (cursor links). */
  urlWith(changes: Record<string, string | null>): string;
};

/** A JSON read answer before shaping: its text and the surrogate keys of what it was built from. */
export type ReadAnswer = { readonly text: string; readonly keys: Iterable<string> };

/** What a handler answers: a status, headers, a JSON body (text), or none. */
export type DeliveryAnswer = { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: string | Buffer };

/** What a delivery write reads of the address the pipeline matched (read-api/delivery/scope.ts `Match`). */
export type WriteMatch = {
  readonly route: { readonly folder: string; readonly chain: readonly string[]; readonly keep: number; readonly allowed_methods: readonly string[] };
  /** The keys of the keyed ancestors, by collection. */
  readonly keys: ReadonlyMap<string, string>;
  /** The path after the collection: [] or [key]. */
  readonly rest: readonly string[];
};

/** The delivery write endpoints (write-api/delivery-writes.ts), as the delivery pipeline dispatches POST and PUT to them. */
export type DeliveryWrites = {
  handle(
    ask: DeliveryAsk,
    at: {
      readonly env: string;
      readonly match: WriteMatch;
      /** The authenticated key, or null. */
      readonly caller: { readonly key: Doc } | null;
      /** Refuses (401 or 403) a caller that may not do this to the matched collection. */
      authorize(action: 'create' | 'update'): void;
    },
  ): Promise<DeliveryAnswer>;
};
