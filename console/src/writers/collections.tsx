import { useState } from 'preact/hooks';
import { api, env } from '../api';
import { href } from '../route';
import { Action, ErrorMessage, Labeled, Pager, text, usePage, WriteForm } from '../ui';

export type Collection = { key: string; name: string; alias: string; path: string; parent: string | null };

const TREE = () => env('/collections/tree/');
const ONE = (key: string) => env(`/collections/tree/collection/?key=${encodeURIComponent(key)}`);

/** A select of the environment's collections (first page), for parents and references. */
export function CollectionSelect({ name, label, collections, value, none }: { name: string; label: string; collections: Collection[]; value?: string | null; none?: string }) {
  return (
    <Labeled label={label}>
      <select name={name} value={value === undefined ? undefined : (value ?? '')}>
        {none !== undefined ? <option value="">{none}</option> : null}
        {collections.map((c) => (
          <option key={c.key} value={c.key}>
            {c.path}
          </option>
        ))}
      </select>
    </Labeled>
  );
}

function Row({ collection, all, changed }: { collection: Collection; all: Collection[]; changed: () => void }) {
  const [editing, setEditing] = useState(false);
  const depth = collection.path.split('/').length - 1;
  return (
    <li class={`depth-${Math.min(depth, 5)}`}>
      <a href={href('collection', collection.key)}>{collection.name}</a> <code>/{collection.path}</code>{' '}
      <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
        Rename or move
      </button>{' '}
      <Action label="Delete" danger run={async () => (await api('DELETE', ONE(collection.key)), changed())} />
      {editing ? (
        <WriteForm
          label="Save collection"
          reset={false}
          onDone={() => (setEditing(false), changed())}
          submit={(form) => api('PUT', ONE(collection.key), { name: text(form, 'name'), alias: text(form, 'alias'), parent: text(form, 'parent') || null })}
        >
          <Labeled label="Name">
            <input name="name" defaultValue={collection.name} required />
          </Labeled>
          <Labeled label="Alias">
            <input name="alias" defaultValue={collection.alias} required />
          </Labeled>
          <CollectionSelect name="parent" label="Parent" none="(top level)" value={collection.parent} collections={all.filter((c) => c.key !== collection.key)} />
        </WriteForm>
      ) : null}
    </li>
  );
}

/** The collection tree: create, rename, nest (move under a parent) and delete. */
export function Collections() {
  const list = usePage<Collection>(TREE());
  const all = list.page?.results ?? [];
  const sorted = [...all].sort((a, b) => a.path.localeCompare(b.path));
  return (
    <section>
      <h1>Collections</h1>
      <ErrorMessage error={list.error} />
      <ul class="tree" aria-label="Collection tree">
        {sorted.map((c) => (
          <Row key={c.key} collection={c} all={all} changed={list.reload} />
        ))}
      </ul>
      <Pager page={list.page} go={list.go} label="Collections" />
      <h2>New collection</h2>
      <WriteForm label="Create collection" onDone={list.reload} submit={(form) => api('POST', TREE(), { name: text(form, 'name'), alias: text(form, 'alias'), parent: text(form, 'parent') || null })}>
        <Labeled label="Name">
          <input name="name" required />
        </Labeled>
        <Labeled label="Alias" hint="The URL segment readers use.">
          <input name="alias" required />
        </Labeled>
        <CollectionSelect name="parent" label="Parent" none="(top level)" collections={all} />
      </WriteForm>
    </section>
  );
}
