import type { FieldDef } from '../domain/schema/fields.js';
import type { SchemaOwner } from '../domain/schema/events.js';
import { rebase } from '../domain/schema/field-tree.js';
import type { Doc } from './ports.js';
import { remove, type DocChange, type ReadModelProjection } from './read-model-target.js';
import { fieldId } from './schema-versions.js';

/** Field updates and deletes in the `schema_fields` read model (creates are in schema-versions.ts). */

const COLLECTION = 'schema_fields';

const fieldDoc = (owner: SchemaOwner, version: string, field: FieldDef, created_at: unknown): Doc => ({
  _id: fieldId(version, field.path),
  ...field,
  env: owner.env,
  schema_key: owner.schema_key,
  version,
  created_at,
});

/**
 * A document that changes id (its path was renamed): the first change takes the old
 * document away, the second writes it under the new id, keeping what it held (its
 * `created_at`, so the tree order stays). On a replay both are skipped by position.
 */
function move(fromId: string, toId: string, rewrite: (doc: Doc | null) => Doc): DocChange[] {
  let carried: Doc | null = null;
  return [
    {
      collection: COLLECTION,
      id: fromId,
      apply: (current) => {
        carried = current;
        return null;
      },
    },
    { collection: COLLECTION, id: toId, apply: () => rewrite(carried) },
  ];
}

export const schemaFieldsProjection: ReadModelProjection = {
  changes: (event, stored) => {
    switch (event.type) {
      case 'SchemaFieldUpdated': {
        const { version, path, field, moved } = event.data;
        const doc = (current: Doc | null): Doc => fieldDoc(event.data, version, field, current?.created_at ?? stored.metadata.timestamp);
        if (field.path === path) {
          return [{ collection: COLLECTION, id: fieldId(version, path), apply: doc }];
        }
        const changes = move(fieldId(version, path), fieldId(version, field.path), doc);
        for (const old of moved) {
          const to = rebase(old, path, field.path);
          const parent = to.split('.').slice(0, -1).join('.');
          changes.push(...move(fieldId(version, old), fieldId(version, to), (current) => ({ ...current, _id: fieldId(version, to), path: to, parent })));
        }
        return changes;
      }
      case 'SchemaFieldDeleted':
        return event.data.removed.map((path) => remove(COLLECTION, fieldId(event.data.version, path)));
      default:
        return [];
    }
  },
};
