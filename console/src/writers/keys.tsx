import { useState } from 'preact/hooks';
import { api, env } from '../api';
import { Action, Checks, checkedIn, ErrorMessage, Json, Labeled, Pager, text, usePage, WriteForm } from '../ui';

type Key = { key: string; description: string; public_key: string; role: string | null; bearer_token_prefix?: string | null };
type Role = { key: string; name: string; description: string; full_access?: boolean };
type Permission = { content_type: string; actions: string[]; all_objects: boolean };
type Kind = 'management-api' | 'delivery-api';

const ACTIONS = ['create', 'read', 'update', 'delete'];
const TYPES: Record<Kind, string[]> = {
  'management-api': ['collections', 'resources', 'components', 'schemas', 'locales', 'flux-apis', 'management-api', 'delivery-api', 'events'],
  'delivery-api': ['flux-apis', 'collections'],
};

function Permissions({ kind, role }: { kind: Kind; role: string }) {
  const path = env(`/permissions/${kind}/roles/${role}/permissions/`);
  const list = usePage<Permission>(path);
  const results = (list.page as unknown as { results?: Permission[] } | Permission[] | null) ?? [];
  const rows = Array.isArray(results) ? results : (results.results ?? []);
  return (
    <div>
      <ErrorMessage error={list.error} />
      <ul class="rows">
        {rows.map((p) => (
          <li key={p.content_type}>
            {p.content_type}: {p.actions.join(', ')} {p.all_objects ? '(all objects)' : '(listed objects)'}{' '}
            <Action label="Remove" danger run={async () => (await api('DELETE', `${path}?content_type=${p.content_type}`), list.reload())} />
          </li>
        ))}
      </ul>
      <WriteForm label="Add permission" onDone={list.reload} submit={(form) => api('POST', path, { content_type: text(form, 'content_type'), actions: checkedIn(form, ACTIONS), all_objects: true })}>
        <Labeled label="Content type">
          <select name="content_type">
            {TYPES[kind].map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Labeled>
        <Checks legend="Actions" names={ACTIONS} />
      </WriteForm>
    </div>
  );
}

/** API keys and roles of one kind (management or delivery): create, delete, tokens, permissions. */
export function Keys() {
  const [kind, setKind] = useState<Kind>('management-api');
  const keys = usePage<Key>(env(`/permissions/${kind}/api-keys/`));
  const roles = usePage<Role>(env(`/permissions/${kind}/roles/`));
  const [secret, setSecret] = useState<unknown>(null);
  return (
    <section>
      <h1>Keys and roles</h1>
      <Labeled label="Interface">
        <select value={kind} onChange={(e) => (setKind(e.currentTarget.value as Kind), setSecret(null))}>
          <option value="management-api">management</option>
          <option value="delivery-api">delivery</option>
        </select>
      </Labeled>
      <h2>Keys</h2>
      <ErrorMessage error={keys.error} />
      <ul class="rows">
        {keys.page?.results.map((k) => (
          <li key={k.key}>
            {k.description || k.key} <code>{k.public_key}</code> <span class="muted">role {k.role ?? 'none (unrestricted)'}</span>{' '}
            {kind === 'delivery-api' ? <Action label="Issue bearer token" run={async () => setSecret(await api('POST', env(`/permissions/${kind}/api-keys/${k.key}/bearer-token/`)))} /> : null}{' '}
            <Action label="Delete key" danger run={async () => (await api('DELETE', env(`/permissions/${kind}/api-keys/${k.key}/`)), keys.reload())} />
          </li>
        ))}
      </ul>
      <Pager page={keys.page} go={keys.go} label="Keys" />
      {secret ? (
        <div class="notice" role="status">
          <p>Shown once: copy it now.</p>
          <Json value={secret} />
        </div>
      ) : null}
      <WriteForm
        label="Create key"
        onDone={keys.reload}
        submit={async (form) => setSecret(await api('POST', env(`/permissions/${kind}/api-keys/`), { description: text(form, 'description'), role: text(form, 'role') || null }))}
      >
        <Labeled label="Description">
          <input name="description" maxLength={100} />
        </Labeled>
        <Labeled label="Role">
          <select name="role">
            <option value="">(none)</option>
            {roles.page?.results.map((r) => (
              <option key={r.key} value={r.key}>
                {r.name}
              </option>
            ))}
          </select>
        </Labeled>
      </WriteForm>
      <h2>Roles</h2>
      <ErrorMessage error={roles.error} />
      <ul class="rows">
        {roles.page?.results.map((r) => (
          <li key={r.key}>
            <details>
              <summary>
                {r.name} {r.full_access ? '(full access)' : ''}
              </summary>
              <Permissions kind={kind} role={r.key} />
              <Action label="Delete role" danger run={async () => (await api('DELETE', env(`/permissions/${kind}/roles/${r.key}/`)), roles.reload())} />
            </details>
          </li>
        ))}
      </ul>
      <Pager page={roles.page} go={roles.go} label="Roles" />
      <WriteForm
        label="Create role"
        onDone={roles.reload}
        submit={(form) => api('POST', env(`/permissions/${kind}/roles/`), { name: text(form, 'name'), description: text(form, 'description'), ...(kind === 'management-api' ? { full_access: form.get('full_access') === 'on' } : {}) })}
      >
        <Labeled label="Role name">
          <input name="name" required />
        </Labeled>
        <Labeled label="Role description">
          <input name="description" />
        </Labeled>
        {kind === 'management-api' ? (
          <label class="check">
            <input type="checkbox" name="full_access" /> Full access
          </label>
        ) : null}
      </WriteForm>
    </section>
  );
}
