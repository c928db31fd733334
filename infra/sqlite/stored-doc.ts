import type { DeliveryDoc } from '../../projections/ports.js';
import { withStoredText } from '../../projections/stored-text.js';

/** A `docs` row as a page query reads it (payload as JSON text, `json(data)`). */
export type DocRow = { env: string; folder: string; key: string; created_at: string; updated_at: string; owner: string | null; data: string | null };

/**
 * A document of a page (docs/decisions/0235): its payload parsed on first use only, and its
 * stored JSON text kept beside it for answers that serve the payload unchanged.
 */
export function storedDoc(row: DocRow): DeliveryDoc {
  const text = row.data;
  if (text === null) return { env: row.env, folder: row.folder, key: row.key, created_at: row.created_at, updated_at: row.updated_at, owner: row.owner, data: null };
  let parsed: Record<string, unknown> | undefined;
  const doc = {
    env: row.env,
    folder: row.folder,
    key: row.key,
    created_at: row.created_at,
    updated_at: row.updated_at,
    owner: row.owner,
    get data(): Record<string, unknown> {
      return (parsed ??= JSON.parse(text) as Record<string, unknown>);
    },
  };
  return withStoredText(doc, text);
}
