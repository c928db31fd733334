import type { Embedder } from '../../projections/embedder.js';

export type HttpEmbedderOptions = {
  /** Base URL of an OpenAI-compatible API; texts are posted to `{url}/embeddings`. */
  readonly url: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  readonly apiKey?: string;
  readonly timeoutMs?: number;
  /** Most texts per request. */
  readonly batchSize?: number;
};

type EmbeddingsResponse = { data?: { index?: number; embedding?: unknown }[] };

function unit(values: unknown): Float32Array {
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new Error('the embeddings endpoint answered an embedding that is not a list of finite numbers');
  }
  const vector = Float32Array.from(values as number[]);
  const norm = Math.hypot(...vector);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** An OpenAI-compatible embeddings endpoint (OpenAI, Azure-style gateways, Ollama, vLLM, LocalAI...). */
export class HttpEmbedder implements Embedder {
  readonly model: string;

  constructor(private readonly options: HttpEmbedderOptions) {
    this.model = options.model;
  }

  private async request(input: readonly string[]): Promise<Float32Array[]> {
    const response = await fetch(`${this.options.url.replace(/\/+$/, '')}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.options.model, input }),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    if (!response.ok) throw new Error(`the embeddings endpoint answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    const body = (await response.json()) as EmbeddingsResponse;
    const data = body.data ?? [];
    if (data.length !== input.length) throw new Error(`the embeddings endpoint answered ${data.length} embeddings for ${input.length} texts`);
    const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return ordered.map((item) => unit(item.embedding));
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 64;
    const vectors: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += size) vectors.push(...(await this.request(texts.slice(at, at + size))));
    return vectors;
  }
}
