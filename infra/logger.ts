import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: undefined });
}

/** The `(message, error)` callback the inner layers take. */
export const logErrors =
  (logger: Logger) =>
  (message: string, error?: unknown): void =>
    logger.error({ err: error }, message);
