import type { Request, Response } from 'express';
import type { StoredEvent } from '../../commands/ports.js';
import { replayLine } from './replay-filter.js';
import type { ReplayFormat } from './replay-query.js';
import type { ReplaySink } from './replay-stream.js';

const HEARTBEAT_MS = 15_000;

/** Starts the streamed answer: NDJSON lines, or server-sent events whose `id:` is the position. */
export function openReplay(req: Request, res: Response, format: ReplayFormat): { sink: ReplaySink; closed: Promise<void>; end(): void } {
  res.status(200);
  res.set('Cache-Control', 'no-cache');
  res.set('X-Accel-Buffering', 'no');
  res.set('Content-Type', format === 'sse' ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
  res.flushHeaders();
  const closed = new Promise<void>((resolve) => {
    res.once('close', () => resolve());
    req.once('close', () => resolve());
  });
  const heartbeat = format === 'sse' ? setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS) : null;
  heartbeat?.unref();
  const text = (event: StoredEvent): string => {
    const json = JSON.stringify(replayLine(event));
    return format === 'sse' ? `id: ${event.position}\ndata: ${json}\n\n` : `${json}\n`;
  };
  const sink: ReplaySink = {
    get closed() {
      return res.destroyed || res.writableEnded;
    },
    async send(event) {
      if (res.write(text(event))) return;
      await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    },
  };
  return {
    sink,
    closed,
    end() {
      if (heartbeat) clearInterval(heartbeat);
      if (!res.writableEnded) res.end();
    },
  };
}
