import { useEffect, useState } from 'preact/hooks';
import { api, env, query } from '../api';
import { href, navigate } from '../route';
import { ErrorMessage, Labeled, Pager, usePage } from '../ui';
import type { Collection } from './collections';
import { ResourceForm, type JsonSchema } from './resource-form';
import { Schema, versionsPath, type Version } from './schema';

type Resource = { key: string; name: string | null; external_id: string | null; created_at: string; current_revision: string | null };

/** The published version's JSON Schema of a collection (null while none is published). */
export function usePublishedSchema(collection: string, tick = 0): JsonSchema | null {
  const [schema, setSchema] = useState<JsonSchema | null>(null);
  useEffect(() => {
    api<{ results: Version[] }>('GET', `${versionsPath(collection)}?ordering=-created_at&limit=100`).then(
      (page) => setSchema((page.results.find((v) => v.published_at && !v.archived_at)?.json_schema as JsonSchema | undefined) ?? null),
      () => setSchema(null),
    );
  }, [collection, tick]);
  return schema;
}

function Resources({ collection, schema }: { collection: string; schema: JsonSchema | null }) {
  const [filters, setFilters] = useState<Record<string, string>>({ ordering: '-created_at' });
  const list = usePage<Resource>(env(`/collections/${collection}/resources/${query({ ...filters, limit: 20 })}`));
  const set = (name: string) => (event: Event) => setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value });
  return (
    <section aria-label="Resources">
      <h2>Resources</h2>
      <div class="filters" role="group" aria-label="Resource filters">
        <Labeled label="Status">
          <select value={filters.status ?? ''} onChange={set('status')}>
            <option value="">any</option>
            <option value="published">published</option>
            <option value="draft">draft</option>
          </select>
        </Labeled>
        <Labeled label="Order">
          <select value={filters.ordering} onChange={set('ordering')}>
            <option value="-created_at">newest first</option>
            <option value="created_at">oldest first</option>
          </select>
        </Labeled>
        <Labeled label="External id">
          <input value={filters.external_id ?? ''} onChange={set('external_id')} />
        </Labeled>
        <Labeled label="Created from (ISO)">
          <input value={filters.created_at__gte ?? ''} onChange={set('created_at__gte')} placeholder="2026-01-01T00:00:00Z" />
        </Labeled>
      </div>
      <ErrorMessage error={list.error} />
      <ul class="rows" aria-label="Resource list">
        {list.page?.results.map((r) => (
          <li key={r.key}>
            <a href={href('resource', collection, r.key)}>{r.name ?? r.key}</a> <span class="muted">{r.current_revision ? 'published' : 'draft'}</span> <span class="muted">{r.created_at}</span>
          </li>
        ))}
      </ul>
      <Pager page={list.page} go={list.go} label="Resources" />
      <h2>New resource</h2>
      {schema ? (
        <ResourceForm
          schema={schema}
          label="Create resource"
          modes
          submit={async (data, mode, name) => {
            const made = await api<Resource>('POST', env(`/collections/${collection}/resources/`), { data, mode, name: name || null });
            navigate('resource', collection, made.key);
          }}
        />
      ) : (
        <p>Publish a schema version to write resources.</p>
      )}
    </section>
  );
}

/** A collection: its schema versions and its resources. */
export function CollectionView({ collection }: { collection: string }) {
  const [tick, setTick] = useState(0);
  const [meta, setMeta] = useState<Collection | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => void api<Collection>('GET', env(`/collections/tree/collection/?key=${collection}`)).then(setMeta, setError), [collection]);
  const schema = usePublishedSchema(collection, tick);
  return (
    <section>
      <p>
        <a href={href('collections')}>Collections</a> /
      </p>
      <h1>{meta ? `${meta.name} (/${meta.path})` : collection}</h1>
      <ErrorMessage error={error} />
      <div class="columns">
        <Schema collection={collection} changed={() => setTick(tick + 1)} />
        <Resources collection={collection} schema={schema} />
      </div>
    </section>
  );
}
