import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A finished rebuild of the delivery index waits under this name beside `delivery.db` (docs/decisions/0073). */
export const REBUILT_DELIVERY = 'delivery.rebuilt.db';

/**
 * At open, before anything reads the delivery index: a rebuilt index left by `npm run rebuild`
 * replaces the old file (and its WAL), and the delivery consumer catches up from the rebuilt
 * checkpoint. Answers the file to open.
 */
export function adoptRebuiltDelivery(file: string): string {
  const rebuilt = join(dirname(file), REBUILT_DELIVERY);
  if (!existsSync(rebuilt)) return file;
  for (const old of [`${file}-wal`, `${file}-shm`, file]) rmSync(old, { force: true });
  renameSync(rebuilt, file);
  return file;
}
