import { useState } from 'preact/hooks';
import { api, env } from '../api';
import { Action, ErrorMessage, Json, Labeled, Pager, text, usePage, WriteForm } from '../ui';
import { FieldEditor } from './field-editor';

export type Version = { key: string; version_number: number | null; name: string; published_at: string | null; archived_at: string | null; json_schema: Record<string, unknown> | null };

export const versionsPath = (collection: string) => env(`/collections/${collection}/model/versions/`);

const stateOf = (v: Version) => (v.archived_at ? 'archived' : v.published_at ? `published as v${v.version_number}` : 'draft');

/** Schema versions of a collection: drafts, their fields, publish, and the generated JSON Schema. */
export function Schema({ collection, changed }: { collection: string; changed: () => void }) {
  const list = usePage<Version>(`${versionsPath(collection)}?ordering=-created_at`);
  const [open, setOpen] = useState<string | null>(null);
  const versions = list.page?.results ?? [];
  const selected = versions.find((v) => v.key === open) ?? versions[0];
  return (
    <section aria-label="Schema versions">
      <h2>Schema versions</h2>
      <ErrorMessage error={list.error} />
      <ul class="rows">
        {versions.map((v) => (
          <li key={v.key} aria-current={v.key === selected?.key ? 'true' : undefined}>
            <button type="button" onClick={() => setOpen(v.key)}>
              {v.name || v.key}
            </button>{' '}
            <span class="muted">{stateOf(v)}</span>{' '}
            {!v.published_at ? (
              <Action label="Publish" run={async () => (await api('POST', `${versionsPath(collection)}${v.key}/publish/`, {}), list.reload(), changed())} />
            ) : null}{' '}
            <Action label="Delete version" danger run={async () => (await api('DELETE', `${versionsPath(collection)}${v.key}/`), list.reload())} />
          </li>
        ))}
      </ul>
      <Pager page={list.page} go={list.go} label="Versions" />
      <WriteForm
        label="Create draft version"
        onDone={list.reload}
        submit={(form) => api('POST', `${versionsPath(collection)}${text(form, 'copy_from') ? `?copy_from=${text(form, 'copy_from')}` : ''}`, { name: text(form, 'name') })}
      >
        <Labeled label="Version name">
          <input name="name" />
        </Labeled>
        <Labeled label="Copy fields from">
          <select name="copy_from">
            <option value="">(none)</option>
            {versions.map((v) => (
              <option key={v.key} value={v.key}>
                {v.name || v.key} ({stateOf(v)})
              </option>
            ))}
          </select>
        </Labeled>
      </WriteForm>
      {selected ? (
        <div class="version">
          <h3>
            {selected.name || selected.key} <span class="muted">{stateOf(selected)}</span>
          </h3>
          <FieldEditor fieldsPath={`${versionsPath(collection)}${selected.key}/schema/tree/`} editable={!selected.published_at} />
          {selected.json_schema ? (
            <details>
              <summary>Generated JSON Schema</summary>
              <Json value={selected.json_schema} />
            </details>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
