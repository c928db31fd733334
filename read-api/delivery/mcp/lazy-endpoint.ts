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
