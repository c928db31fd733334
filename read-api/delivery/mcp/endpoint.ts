import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, isInitializeRequest, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '../../../domain/errors.js';
import type { ReadStore } from '../../../projections/ports.js';
import type { DeliveryAuth, DeliveryCaller } from '../auth.js';
import type { DeliveryApi, DeliveryRouting } from '../routing.js';
import { callTool, type Args } from './calls.js';
import { toolCatalog, type ToolName } from './catalog.js';
import { ownOrigin, type Caller } from './forward.js';
import { Sessions } from './sessions.js';
import { textFieldPaths } from './text-fields.js';

/** Idle sessions end after an hour, as the product's do. */
export const SESSION_IDLE_MS = 60 * 60_000;
export const SERVER_INFO = { name: 'cms-delivery-mcp', version: '0.1.0' };

type Live = { readonly server: Server; readonly transport: StreamableHTTPServerTransport };

/** The request as the delivery server hands it over: its JSON body parsed. */
export type McpRequest = IncomingMessage & { readonly body?: unknown };

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
};

const rpcError = (res: ServerResponse, status: number, code: number, message: string): void => json(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true });
const validators = new Map<string, ValidateFunction>();

function validated(api: DeliveryApi, name: string, args: unknown): Args {
  const tool = toolCatalog(api, true).find((t) => t.name === name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile({ ...tool.inputSchema, properties: tool.inputSchema.properties });
    validators.set(name, validate);
  }
  const value = args ?? {};
  if (!validate(value)) {
    const detail = (validate.errors ?? []).map((e) => `${e.instancePath || 'arguments'} ${e.message ?? 'is invalid'}`).join('; ');
    throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${name}: ${detail}`);
  }
  return value as Args;
}

/** Whether the caller's key may write somewhere: a connection allows `create` or `update` and its role grants it there. */
const mayWrite = (auth: DeliveryAuth, api: DeliveryApi, caller: DeliveryCaller | null): boolean =>
  caller !== null &&
  api.routes.some((r) => (['create', 'update'] as const).some((action) => r.allowed_methods.includes(action) && auth.may(caller, api, r.folder, action)));

type CallerInfo = { readonly caller: Caller; readonly key: DeliveryCaller | null };

/**
 * `{prefix}/_mcp`: the Model Context Protocol over streamable HTTP (docs/decisions/0120). One
 * MCP server per session, bound to its environment and prefix; every tool call is replayed
 * against the delivery interface with the caller's own credentials.
 */
export class McpEndpoint {
  private readonly sessions = new Sessions<Live>(SESSION_IDLE_MS, (live) => void live.transport.close());
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly deps: { readonly routing: DeliveryRouting; readonly readStore: ReadStore; readonly auth: DeliveryAuth }) {
    this.sweeper = setInterval(() => this.sessions.sweep(Date.now()), 60_000);
    this.sweeper.unref();
  }

  private serverFor(env: string, prefix: string): Server {
    const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
    const current = (): DeliveryApi => {
      const api = this.deps.routing.api(env, prefix);
      if (!api || !api.mcp_enabled) throw new McpError(ErrorCode.InvalidRequest, 'This API no longer offers the agent endpoint.');
      return api;
    };
    const infoOf = (extra: { authInfo?: { extra?: Record<string, unknown> } }): CallerInfo => extra.authInfo?.extra?.info as CallerInfo;
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      const api = current();
      const { key } = infoOf(extra);
      return { tools: toolCatalog(api, mayWrite(this.deps.auth, api, key), (folder, action) => this.deps.auth.may(key, api, folder, action)) };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const api = current();
      const name = request.params.name as ToolName;
      const args = validated(api, name, request.params.arguments);
      const { caller, key } = infoOf(extra);
      const readable = (folder: string): boolean => this.deps.auth.may(key, api, folder, 'read');
      return callTool({ api, caller, readable, textFields: (folder) => textFieldPaths(this.deps.readStore, env, folder) }, name, args);
    });
    return server;
  }

  /** Answers one HTTP request to `/{env}/{prefix}/_mcp`; the router resolved the API and authenticated the caller (`key`). */
  async handle(req: McpRequest, res: ServerResponse, api: DeliveryApi, env: string, key: DeliveryCaller | null): Promise<void> {
    if (!api.mcp_enabled) throw notFound('route_not_found', 'Route');
    const sessionId = header(req, 'mcp-session-id');
    if (req.method === 'GET' || req.method === 'HEAD') {
      if ((header(req, 'accept') ?? '').includes('text/event-stream')) {
        res.setHeader('Allow', 'GET, POST, DELETE');
        return rpcError(res, 405, ErrorCode.ConnectionClosed, 'This server sends no notifications: no event stream is offered.');
      }
      json(res, 200, { status: 'ok', protocol: 'mcp-streamable-http', api: api.prefix });
      return;
    }
    if (req.method === 'DELETE') {
      if (sessionId && this.sessions.use(sessionId, env, api.prefix, Date.now())) this.sessions.drop(sessionId);
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'GET, POST, DELETE');
      return rpcError(res, 405, ErrorCode.ConnectionClosed, 'Method not allowed.');
    }
    const caller: Caller = {
      origin: ownOrigin(req.socket.localAddress, req.socket.localPort),
      env,
      prefix: api.prefix,
      headers: {
        ...this.deps.auth.forwardHeaders(key),
        // The replayed requests carry the agent request's id: one id traces a tool call through the logs.
        ...(typeof res.getHeader('x-request-id') === 'string' ? { 'x-request-id': res.getHeader('x-request-id') as string } : {}),
      },
    };
    const info: CallerInfo = { caller, key };
    (req as McpRequest & { auth?: unknown }).auth = { token: '', clientId: 'delivery', scopes: [], extra: { info } };
    let live: Live | undefined;
    if (sessionId) {
      live = this.sessions.use(sessionId, env, api.prefix, Date.now())?.value;
      if (!live) return rpcError(res, 404, -32001, 'Session not found: initialize a new session.');
    } else {
      const body: unknown = req.body;
      const initializes = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
      if (!initializes) return rpcError(res, 400, ErrorCode.ConnectionClosed, 'Bad request: an Mcp-Session-Id header is required, or an initialize request.');
      const server = this.serverFor(env, api.prefix);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => this.sessions.add(id, { env, prefix: api.prefix, value: { server, transport }, lastUsed: Date.now() }),
      });
      await server.connect(transport);
      live = { server, transport };
    }
    await live.transport.handleRequest(req, res, req.body);
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sessions.clear();
  }
}
