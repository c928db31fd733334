import type { StoredDoc } from '../../projections/ports.js';

/** A `docs` row as a page query reads it (payload as JSON text, `json(data)`). */
export type DocRow = { env: string; folder: string; key: string; created_at: string; updated_at: string; owner: string | null; data: string | null };

/**
 * A document of a page with its payload as the stored JSON text (docs/decisions/0235): SQLite's
 * `json()` of the JSONB it converted from the `JSON.stringify` text the projection bound, which
 * gives that text back byte for byte. Page queries read published documents only.
 */
export const storedItem = (row: DocRow): StoredDoc => ({
  env: row.env,
  folder: row.folder,
  key: row.key,
  created_at: row.created_at,
  updated_at: row.updated_at,
  owner: row.owner,
  text: row.data ?? 'null',
});
