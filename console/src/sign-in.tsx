import { useState } from 'preact/hooks';
import { request, saveSession, type Session } from './api';
import { ErrorMessage, Labeled } from './ui';

type Named = { key: string; name: string };

/** The environment a user token works in: the first one of its organizations' projects. */
async function firstEnvironment(credential: string): Promise<string> {
  const orgs = await request<Named[]>(credential, 'GET', '/organizations/');
  for (const org of orgs) {
    const projects = await request<{ results: { environments: Named[] }[] }>(credential, 'GET', `/organizations/${org.key}/projects/`);
    for (const project of projects.results) if (project.environments[0]) return project.environments[0].key;
  }
  throw new Error('This credential reaches no environment: enter one.');
}

/**
 * A management token, or a management key as `public_key:secret_key` (sent the same way:
 * `Authorization: Bearer ...`). It is checked with a read, kept in this tab's session storage
 * only, and dropped at the first 401.
 */
export function SignIn({ reason, onSignedIn }: { reason: string | null; onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<unknown>(reason ? new Error(reason) : null);
  const [busy, setBusy] = useState(false);
  return (
    <main class="sign-in">
      <h1>CMS console</h1>
      <form
        aria-label="Sign in"
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const credential = String(form.get('token') ?? '').trim();
          let env = String(form.get('environment') ?? '').trim();
          setBusy(true);
          setError(null);
          try {
            // A management key is scoped to its environment: it cannot list organizations, so it names one.
            if (!env) env = await firstEnvironment(credential);
            await request(credential, 'GET', `/v1/${env}/locales/`);
            const session = { credential, env };
            saveSession(session);
            onSignedIn(session);
          } catch (failure) {
            setError(failure);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Labeled label="Management token, or key as public_key:secret_key">
          <input name="token" type="password" required autocomplete="off" />
        </Labeled>
        <Labeled label="Environment" hint="Needed with a management key; a user token finds its own.">
          <input name="environment" autocomplete="off" />
        </Labeled>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorMessage error={error} />
      </form>
    </main>
  );
}
