import { useState } from 'preact/hooks';
import { env, query } from '../api';
import { href } from '../route';
import { ErrorMessage, Labeled, Pager, usePage } from '../ui';

export type AuditEvent = {
  key: string;
  timestamp: string;
  event_type: string;
  entity_type: string;
  entity_key: string;
  actor_type: string;
  actor: { key: string; email?: string; description?: string } | null;
  ip_address: string | null;
  metadata: Record<string, unknown> | null;
};

const ENTITY_TYPES = ['collection', 'resource', 'revision', 'component', 'version', 'api', 'manageapikey', 'deliveryapikey', 'managepermissionrole', 'deliverypermissionrole', 'envrole', 'deliveryrole', 'locale'];
const MAIN_FILTERS = ['entity_key', 'collection_key', 'resource_key'];
const MORE_FILTERS = ['schema_key', 'api_key', 'actor_key', 'referer', 'ip_address', 'from_timestamp', 'to_timestamp'];

const textFilter = (name: string) => (
  <Labeled key={name} label={name.replace(/_/g, ' ')}>
    <input name={name} placeholder={name.endsWith('timestamp') ? '2026-01-01T00:00:00Z' : ''} />
  </Labeled>
);

export const actorOf = (e: AuditEvent) => (e.actor ? (e.actor.email ?? e.actor.description ?? e.actor.key) : e.actor_type);

/** The resource an event is about, for a link to its history. */
function historyLink(e: AuditEvent): string | null {
  const folder = e.metadata?.folder_key as string | undefined;
  if (e.entity_type === 'resource' && folder) return href('history', folder, e.entity_key);
  if (e.entity_type === 'revision' && folder) return href('history', folder, String(e.metadata?.resource_key));
  return null;
}

export function EventTable({ events, label }: { events: AuditEvent[]; label: string }) {
  return (
    <table class="events">
      <caption>{label}</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Event</th>
          <th scope="col">Entity</th>
          <th scope="col">Actor</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => {
          const link = historyLink(e);
          return (
            <tr key={e.key}>
              <td>{e.timestamp}</td>
              <td>
                {e.entity_type}:{e.event_type}
              </td>
              <td>{link ? <a href={link}>{e.entity_key}</a> : e.entity_key}</td>
              <td>{actorOf(e)}</td>
              <td>
                {e.metadata ? (
                  <details>
                    <summary>metadata</summary>
                    <pre class="json">{JSON.stringify(e.metadata, null, 2)}</pre>
                  </details>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The environment's event log with the specification's filters, newest first by default. */
export function AuditEvents() {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const list = usePage<AuditEvent>(env(`/events/${query({ ...filters, limit: 25 })}`));
  return (
    <section>
      <h1>Event log</h1>
      <form
        class="filters"
        aria-label="Event filters"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setFilters(Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v).trim()]).filter(([, v]) => v)));
        }}
      >
        <Labeled label="Event type">
          <select name="event_type">
            <option value="">any</option>
            {['create', 'update', 'delete'].map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Labeled>
        <Labeled label="Entity type">
          <select name="entity_type">
            <option value="">any</option>
            {ENTITY_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Labeled>
        <Labeled label="Actor type">
          <select name="actor_type">
            <option value="">any</option>
            <option>user</option>
            <option>apikey</option>
          </select>
        </Labeled>
        {MAIN_FILTERS.map(textFilter)}
        <details class="more">
          <summary>More filters</summary>
          {MORE_FILTERS.map(textFilter)}
        </details>
        <Labeled label="Order">
          <select name="ordering">
            <option value="-timestamp">newest first</option>
            <option value="timestamp">oldest first</option>
          </select>
        </Labeled>
        <button type="submit">Apply filters</button>
      </form>
      <ErrorMessage error={list.error} />
      <EventTable events={list.page?.results ?? []} label={`${list.page?.count ?? 0} events`} />
      <Pager page={list.page} go={list.go} label="Events" />
    </section>
  );
}
