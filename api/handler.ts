import type { CommandContext } from '../commands/context.js';
import type { TenancyContext } from '../commands/tenancy-context.js';
import type { Principal } from './principal.js';

/**
 * A management request as a handler reads it: already authenticated, its body parsed and its
 * path parameters matched. Handlers are functions of this (Emmett's `emmett-expressjs` style);
 * `infra/http/handler.ts` is the one place that builds it from express's request.
 */
export type ApiRequest = {
  /** Path parameters (`env`, `collection`, ...), decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
  /** A request header (lower-case name), or undefined. */
  header(name: string): string | undefined;
  /** This request's own URL with some query parameters replaced (a list's `next` and `previous`). */
  urlWith(changes: Readonly<Record<string, string | null>>): string;
  readonly principal: Principal;
  /** Who writes, in which environment, when: the metadata of every event a command appends. */
  readonly context: CommandContext;
  /** Under `/organizations/{org}/`: the organization administrator's context (404 or 403 for anyone else, when read). */
  readonly tenancy: TenancyContext;
};

/** Where a streamed answer writes: `write` resolves once the client can take more, or has gone. */
export type StreamOut = {
  write(text: string): Promise<void>;
  /** Whether the client has gone. */
  readonly closed: boolean;
  /** Resolves when the client goes away. */
  readonly gone: Promise<void>;
};

/**
 * What a handler answers: a status, extra headers and either a JSON body (none for 204) or a
 * stream, written by `stream` after the head is sent; the answer ends when it resolves.
 */
export type ApiResult = {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly stream?: (out: StreamOut) => Promise<void>;
};

export type ApiHandler = (request: ApiRequest) => Promise<ApiResult>;

/** One route: a method, its path under where the router is mounted, and its handler. */
export type ApiRoute = {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  readonly path: string | readonly string[];
  readonly handler: ApiHandler;
};

/** A JSON answer. */
export const json = (status: number, body: unknown): ApiResult => ({ status, body });

/** A GET route. */
export const get = (path: ApiRoute['path'], handler: ApiHandler): ApiRoute => ({ method: 'get', path, handler });
