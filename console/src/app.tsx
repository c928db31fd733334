import { useEffect, useState } from 'preact/hooks';
import { loadSession, saveSession, whenUnauthorized, type Session } from './api';
import { AuditEvents } from './auditors/events';
import { Chain } from './auditors/chain';
import { History } from './auditors/history';
import { href, useRoute } from './route';
import { SignIn } from './sign-in';
import { Collections } from './writers/collections';
import { CollectionView } from './writers/collection-view';
import { Delivery } from './writers/delivery';
import { Keys } from './writers/keys';
import { ResourceView } from './writers/resource-view';

const WRITERS = [
  ['collections', 'Collections'],
  ['delivery', 'Delivery APIs'],
  ['keys', 'Keys and roles'],
] as const;
const AUDITORS = [
  ['events', 'Event log'],
  ['history', 'Resource history'],
  ['chain', 'Hash chain'],
] as const;

function View({ route }: { route: string[] }) {
  const [view = 'collections', a, b] = route;
  if (view === 'collection' && a) return <CollectionView collection={a} />;
  if (view === 'resource' && a && b) return <ResourceView collection={a} resource={b} />;
  if (view === 'delivery') return <Delivery />;
  if (view === 'keys') return <Keys />;
  if (view === 'events') return <AuditEvents />;
  if (view === 'history') return <History collection={a ?? ''} resource={b ?? ''} />;
  if (view === 'chain') return <Chain />;
  return <Collections />;
}

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [reason, setReason] = useState<string | null>(null);
  const route = useRoute();
  useEffect(
    () =>
      whenUnauthorized((message) => {
        saveSession(null);
        setReason(message);
        setSession(null);
      }),
    [],
  );
  if (!session) return <SignIn reason={reason} onSignedIn={(next) => (setReason(null), setSession(next))} />;
  const current = route[0] ?? 'collections';
  const link = ([to, label]: readonly [string, string]) => (
    <li key={to}>
      <a href={href(to)} aria-current={current === to ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <div class="shell">
      <header>
        <strong>CMS console</strong>
        <span class="env">Environment {session.env}</span>
        <nav aria-label="Writers">
          <span class="group">Write</span>
          <ul>{WRITERS.map(link)}</ul>
        </nav>
        <nav aria-label="Auditors">
          <span class="group">Audit</span>
          <ul>{AUDITORS.map(link)}</ul>
        </nav>
        <button type="button" onClick={() => (saveSession(null), setSession(null))}>
          Sign out
        </button>
      </header>
      <main>
        <View route={route} />
      </main>
    </div>
  );
}
