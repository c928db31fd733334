import { notFound } from '../../../domain/errors.js';
import type { McpEndpoint } from './endpoint.js';

type Deps = ConstructorParameters<typeof McpEndpoint>[0];

/**
 * The agent endpoint, loaded on its first request: the MCP SDK (and the schema library it brings)
 * was the largest package a start loaded, for an endpoint few installations use (docs/decisions/0347).
 */
export class LazyMcpEndpoint implements Pick<McpEndpoint, 'handle' | 'close'> {
  private endpoint: Promise<McpEndpoint> | null = null;
  private loaded: McpEndpoint | null = null;
  private closed = false;

  constructor(private readonly deps: Deps) {}

  async handle(...args: Parameters<McpEndpoint['handle']>): Promise<void> {
    // Refused here, before the SDK loads: an API without the endpoint never loads it (and the refusal is this module graph's DomainError).
    if (!args[2].mcp_enabled) throw notFound('route_not_found', 'Route');
    this.endpoint ??= import('./endpoint.js').then(({ McpEndpoint: Endpoint }) => (this.loaded = new Endpoint(this.deps)));
    const endpoint = await this.endpoint;
    if (this.closed) endpoint.close();
    return endpoint.handle(...args);
  }

  close(): void {
    this.closed = true;
    this.loaded?.close();
  }
}
