import { diffJson, type Change } from 'diff';
import { useState } from 'preact/hooks';
import { api, env, query } from '../api';
import { href, navigate } from '../route';
import { ErrorMessage, Json, Labeled, Pager, text, usePage, WriteForm } from '../ui';
import { EventTable, type AuditEvent } from './events';

type Revision = { key: string; number: number; status: string };

/** The lines two revisions' data differ by, marked added or removed. */
function Diff({ changes }: { changes: Change[] }) {
  return (
    <pre class="diff" aria-label="Differences">
      {changes.map((c, i) => (
        <span key={i} class={c.added ? 'added' : c.removed ? 'removed' : ''}>
          {c.value
            .replace(/\n$/, '')
            .split('\n')
            .map((line) => `${c.added ? '+ ' : c.removed ? '- ' : '  '}${line}\n`)
            .join('')}
        </span>
      ))}
    </pre>
  );
}

function Compare({ base, revisions }: { base: string; revisions: Revision[] }) {
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [from, setFrom] = useState(revisions[0]?.key ?? '');
  const [to, setTo] = useState(revisions[revisions.length - 1]?.key ?? '');
  const options = revisions.map((r) => (
    <option key={r.key} value={r.key}>
      #{r.number} ({r.status})
    </option>
  ));
  const dataOf = (key: string) => api('GET', `${base}revisions/${key}/data/`);
  return (
    <section aria-label="Compare revisions">
      <h2>Compare revisions</h2>
      <WriteForm label="Show differences" reset={false} submit={async (form) => setChanges(diffJson((await dataOf(text(form, 'from'))) as object, (await dataOf(text(form, 'to'))) as object))}>
        <Labeled label="From revision">
          <select name="from" value={from} onChange={(e) => setFrom(e.currentTarget.value)}>
            {options}
          </select>
        </Labeled>
        <Labeled label="To revision">
          <select name="to" value={to} onChange={(e) => setTo(e.currentTarget.value)}>
            {options}
          </select>
        </Labeled>
      </WriteForm>
      {changes ? <Diff changes={changes} /> : null}
    </section>
  );
}

function AsOf({ base }: { base: string }) {
  const [state, setState] = useState<{ resource: unknown; data: unknown } | null>(null);
  return (
    <section aria-label="State as of a moment">
      <h2>State as of a moment</h2>
      <WriteForm
        label="Show state"
        reset={false}
        submit={async (form) => {
          const at = query({ as_of: new Date(text(form, 'as_of')).toISOString() });
          const resource = await api('GET', `${base}${at}`);
          const data = await api('GET', `${base}data/${at}`).catch((error: unknown) => ({ unavailable: String((error as Error).message) }));
          setState({ resource, data });
        }}
      >
        <Labeled label="Moment">
          <input name="as_of" type="datetime-local" step="1" required />
        </Labeled>
      </WriteForm>
      {state ? <Json value={state} /> : null}
    </section>
  );
}

/** One resource's audit: its events as a timeline, a diff between any two revisions, its state at any moment. */
export function History({ collection, resource }: { collection: string; resource: string }) {
  const base = env(`/collections/${collection}/resources/${resource}/`);
  const events = usePage<AuditEvent>(resource ? env(`/events/${query({ resource_key: resource, ordering: 'timestamp', limit: 50 })}`) : null);
  const revisions = usePage<Revision>(resource ? `${base}revisions/?limit=100` : null);
  return (
    <section>
      <h1>Resource history</h1>
      <form
        class="filters"
        aria-label="Choose a resource"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          navigate('history', text(form, 'collection'), text(form, 'resource'));
        }}
      >
        <Labeled label="Collection key">
          <input name="collection" defaultValue={collection} required />
        </Labeled>
        <Labeled label="Resource key">
          <input name="resource" defaultValue={resource} required />
        </Labeled>
        <button type="submit">Show history</button>
      </form>
      {resource ? (
        <>
          <p>
            <a href={href('resource', collection, resource)}>Open the resource</a>
          </p>
          <ErrorMessage error={events.error ?? revisions.error} />
          <EventTable events={events.page?.results ?? []} label="Timeline (oldest first)" />
          <Pager page={events.page} go={events.go} label="Timeline" />
          {revisions.page ? <Compare base={base} revisions={revisions.page.results} key={revisions.page.results.length} /> : null}
          <AsOf base={base} />
        </>
      ) : null}
    </section>
  );
}
