import type { ApiResult } from '../../api/handler.js';
import type { StoredEvent } from '../../commands/ports.js';
import { replayLine } from './replay-filter.js';
import type { ReplayFormat } from './replay-query.js';
import type { ReplaySink } from './replay-stream.js';

const HEARTBEAT_MS = 15_000;

/**
 * The streamed answer: NDJSON lines, or server-sent events whose `id:` is the position (with a
 * heartbeat comment); `run` sends the events, each as `shown` makes it, and the answer ends with it.
 */
export function replayAnswer(format: ReplayFormat, shown: (event: StoredEvent) => StoredEvent, run: (sink: ReplaySink, gone: Promise<void>) => Promise<void>): ApiResult {
  const text = (event: StoredEvent): string => {
    const json = JSON.stringify(replayLine(shown(event)));
    return format === 'sse' ? `id: ${event.position}\ndata: ${json}\n\n` : `${json}\n`;
  };
  return {
    status: 200,
    headers: {
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
      'Content-Type': format === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    },
    stream: async (out) => {
      const heartbeat = format === 'sse' ? setInterval(() => void out.write(': heartbeat\n\n'), HEARTBEAT_MS) : null;
      heartbeat?.unref();
      const sink: ReplaySink = {
        get closed() {
          return out.closed;
        },
        send: (event) => out.write(text(event)),
      };
      try {
        await run(sink, out.gone);
      } finally {
        if (heartbeat) clearInterval(heartbeat);
      }
    },
  };
}
