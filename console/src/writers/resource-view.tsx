import { useEffect, useState } from 'preact/hooks';
import { api, env } from '../api';
import { href, navigate } from '../route';
import { Action, ErrorMessage, Json, Labeled, Pager, text, usePage, WriteForm } from '../ui';
import { usePublishedSchema } from './collection-view';
import { ResourceForm } from './resource-form';

type Resource = { key: string; name: string | null; external_id: string | null; created_at: string; current_revision: string | null };
type Revision = { key: string; number: number; status: string; is_valid: boolean; created_at: string; published_at: string | null };
type Values = Record<string, unknown>;

/** Publish a revision at a moment: the server schedules it, or says why it will not. */
function PublishAt({ path, done }: { path: string; done: () => void }) {
  return (
    <WriteForm label="Publish at" onDone={done} submit={(form) => api('POST', `${path}publish/`, { publish_at: new Date(text(form, 'publish_at')).toISOString() })}>
      <Labeled label="Publish time">
        <input name="publish_at" type="datetime-local" required />
      </Labeled>
    </WriteForm>
  );
}

/** A resource: its metadata, an edit form (a new revision), its revisions and their actions. */
export function ResourceView({ collection, resource }: { collection: string; resource: string }) {
  const base = env(`/collections/${collection}/resources/${resource}/`);
  const [meta, setMeta] = useState<Resource | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [editing, setEditing] = useState<Values | null>(null);
  const [shown, setShown] = useState<{ key: string; data: unknown } | null>(null);
  const [tick, setTick] = useState(0);
  const revisions = usePage<Revision>(`${base}revisions/`);
  const schema = usePublishedSchema(collection);
  const refresh = () => (setTick(tick + 1), revisions.reload());
  useEffect(() => void api<Resource>('GET', base).then(setMeta, setError), [base, tick]);
  const dataOf = (revision: string) => api<Values>('GET', `${base}revisions/${revision}/data/`);
  return (
    <section>
      <p>
        <a href={href('collection', collection)}>Collection</a> / <a href={href('history', collection, resource)}>History and audit</a>
      </p>
      <h1>{meta?.name ?? resource}</h1>
      <ErrorMessage error={error} />
      {meta ? (
        <p class="muted">
          key {meta.key}, {meta.current_revision ? `published revision ${meta.current_revision}` : 'draft'}, created {meta.created_at}
        </p>
      ) : null}
      <div class="toolbar">
        <WriteForm label="Rename" reset={false} onDone={refresh} submit={(form) => api('PUT', base, { name: text(form, 'name') || null })}>
          <Labeled label="Name">
            <input name="name" defaultValue={meta?.name ?? ''} key={meta?.name ?? ''} />
          </Labeled>
        </WriteForm>
        <Action label="Edit current data" disabled={!meta?.current_revision} run={async () => setEditing(await dataOf(meta!.current_revision!))} />
        <Action label="Delete resource" danger run={async () => (await api('DELETE', base), navigate('collection', collection))} />
      </div>
      {editing && schema ? (
        <ResourceForm
          schema={schema}
          initial={editing}
          label="Save revision"
          modes
          submit={async (data, mode) => {
            const made = await api<Revision>('POST', `${base}revisions/`, { data });
            if (mode === 'instant') await api('POST', `${base}revisions/${made.key}/publish/`, {});
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      <h2>Revisions</h2>
      <ErrorMessage error={revisions.error} />
      <ol class="rows" aria-label="Revisions">
        {revisions.page?.results.map((r) => (
          <li key={r.key}>
            <strong>#{r.number}</strong> {r.status} <span class="muted">{r.created_at}</span> <Action label="Show data" run={async () => setShown({ key: r.key, data: await dataOf(r.key) })} />{' '}
            <Action label="Edit from here" run={async () => setEditing(await dataOf(r.key))} />{' '}
            {r.status !== 'published' ? <Action label={`Publish revision ${r.number} now`} run={async () => (await api('POST', `${base}revisions/${r.key}/publish/`, {}), refresh())} /> : null}{' '}
            <Action label="Delete revision" danger run={async () => (await api('DELETE', `${base}revisions/${r.key}/`), refresh())} />
            {r.status !== 'published' ? (
              <details>
                <summary>Publish revision {r.number} at a time</summary>
                <PublishAt path={`${base}revisions/${r.key}/`} done={refresh} />
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      <Pager page={revisions.page} go={revisions.go} label="Revisions" />
      {shown ? (
        <div>
          <h3>Data of revision {shown.key}</h3>
          <Json value={shown.data} />
        </div>
      ) : null}
    </section>
  );
}
