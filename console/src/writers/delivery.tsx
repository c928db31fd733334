import { useEffect, useState } from 'preact/hooks';
import { api, deliveryOrigin, env, loadSession, type Page } from '../api';
import { Action, Checks, checkedIn, ErrorMessage, Json, Labeled, Pager, text, usePage, WriteForm } from '../ui';
import { CollectionSelect, type Collection } from './collections';

type DeliveryApi = { key: string; name: string; prefix: string; description?: string; is_auth_required: boolean; mcp_enabled: boolean; router_introspection_enabled: boolean; cors_origins?: string[] };
type Connection = { folder: string; allowed_methods: string[] };
const METHODS = ['get_many', 'get_one', 'create', 'update'];
const origins = (value: string) => value.split(/[\s,]+/).filter(Boolean);

function apiBody(form: FormData) {
  return { name: text(form, 'name'), prefix: text(form, 'prefix'), description: text(form, 'description'), is_auth_required: form.get('is_auth_required') === 'on', cors_origins: origins(text(form, 'cors_origins')) };
}

function ApiFields({ value }: { value?: DeliveryApi }) {
  return (
    <>
      <Labeled label="Name">
        <input name="name" required defaultValue={value?.name} />
      </Labeled>
      <Labeled label="Prefix">
        <input name="prefix" required defaultValue={value?.prefix} />
      </Labeled>
      <Labeled label="Description">
        <input name="description" defaultValue={value?.description ?? ''} />
      </Labeled>
      <Labeled label="CORS origins" hint="Space or comma separated; this console's origin lets it preview the API.">
        <input name="cors_origins" defaultValue={(value?.cors_origins ?? [location.origin]).join(' ')} />
      </Labeled>
      <label class="check">
        <input type="checkbox" name="is_auth_required" defaultChecked={value?.is_auth_required} /> Requires authentication
      </label>
    </>
  );
}

/** What a reader gets: the delivery interface's list of a connected collection, fetched from this page (CORS applies). */
function Preview({ prefix, path }: { prefix: string; path: string }) {
  const url = `${deliveryOrigin()}/${loadSession()?.env}/${prefix}/${path}/`;
  const [answer, setAnswer] = useState<unknown>(null);
  return (
    <div class="preview">
      <Action label={`Preview ${path}`} run={async () => {
        const response = await fetch(url);
        const body: unknown = await response.json();
        if (!response.ok) throw new Error((body as { message?: string }).message ?? String(response.status));
        setAnswer(body);
      }} />
      <code>{url}</code>
      {answer ? <Json value={answer} /> : null}
    </div>
  );
}

function Connections({ api: deliveryApi, collections }: { api: DeliveryApi; collections: Collection[] }) {
  const path = env(`/api/${deliveryApi.key}/collections/`);
  const list = usePage<Connection>(path);
  const pathOf = (key: string) => collections.find((c) => c.key === key)?.path ?? key;
  const methods = (form: FormData) => checkedIn(form, METHODS);
  return (
    <section aria-label="Connections">
      <h3>Connected collections</h3>
      <ErrorMessage error={list.error} />
      <ul class="rows">
        {list.page?.results.map((c) => (
          <li key={c.folder}>
            <strong>/{pathOf(c.folder)}</strong>
            <WriteForm label="Save methods" reset={false} onDone={list.reload} submit={(form) => api('PUT', `${path}${c.folder}/`, { allowed_methods: methods(form) })}>
              <Checks legend="Allowed methods" names={METHODS} checked={(m) => c.allowed_methods.includes(m)} />
            </WriteForm>
            <Action label="Disconnect" danger run={async () => (await api('DELETE', `${path}${c.folder}/`), list.reload())} />
            <Preview prefix={deliveryApi.prefix} path={pathOf(c.folder)} />
          </li>
        ))}
      </ul>
      <Pager page={list.page} go={list.go} label="Connections" />
      <WriteForm label="Connect collection" onDone={list.reload} submit={(form) => api('POST', path, { folder: text(form, 'folder'), allowed_methods: methods(form) })}>
        <CollectionSelect name="folder" label="Collection" collections={collections} />
        <Checks legend="Allowed methods" names={METHODS} checked={(m) => m.startsWith('get')} />
      </WriteForm>
    </section>
  );
}

/** Delivery APIs: create, edit (prefix, authentication, CORS), switches, delete, and their connections. */
export function Delivery() {
  const list = usePage<DeliveryApi>(env('/api/'));
  const collections = usePage<Collection>(env('/collections/tree/')).page?.results ?? [];
  const [open, setOpen] = useState<string | null>(null);
  const selected = list.page?.results.find((a) => a.key === open);
  const [full, setFull] = useState<DeliveryApi | null>(null);
  useEffect(() => void (selected ? api<DeliveryApi>('GET', env(`/api/${selected.key}/`)).then(setFull, () => setFull(selected)) : setFull(null)), [selected?.key, list.page]);
  const one = (key: string) => env(`/api/${key}/`);
  return (
    <section>
      <h1>Delivery APIs</h1>
      <ErrorMessage error={list.error} />
      <ul class="rows">
        {(list.page as Page<DeliveryApi> | null)?.results.map((a) => (
          <li key={a.key} aria-current={a.key === open ? 'true' : undefined}>
            <button type="button" onClick={() => setOpen(a.key)}>
              {a.name}
            </button>{' '}
            <code>/{a.prefix}</code> <span class="muted">{a.is_auth_required ? 'authentication required' : 'public'}</span>
          </li>
        ))}
      </ul>
      <Pager page={list.page} go={list.go} label="Delivery APIs" />
      {full ? (
        <div class="panel" key={full.key}>
          <h2>{full.name}</h2>
          <WriteForm label="Save API" reset={false} onDone={list.reload} submit={(form) => api('PUT', one(full.key), apiBody(form))}>
            <ApiFields value={full} />
          </WriteForm>
          <Action label={`${full.mcp_enabled ? 'Hide' : 'Show'} the agent endpoint`} run={async () => (await api('PATCH', one(full.key), { mcp_enabled: !full.mcp_enabled }), list.reload())} />{' '}
          <Action label={`${full.router_introspection_enabled ? 'Hide' : 'Show'} _router`} run={async () => (await api('PATCH', one(full.key), { router_introspection_enabled: !full.router_introspection_enabled }), list.reload())} />{' '}
          <Action label="Delete API" danger run={async () => (await api('DELETE', one(full.key)), setOpen(null), list.reload())} />
          <Connections api={full} collections={collections} />
        </div>
      ) : null}
      <h2>New delivery API</h2>
      <WriteForm label="Create API" onDone={list.reload} submit={(form) => api('POST', env('/api/'), apiBody(form))}>
        <ApiFields />
      </WriteForm>
    </section>
  );
}
