import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { Action, ErrorMessage } from '../ui';

type Report = { verified: boolean; checked: number; head_position: string; head_hash: string | null; first_break: { position: string; id: string; stream: string; revision: number; reason: string } | null };

/** The event log's hash chain, recomputed by the service: verified or where it breaks, and the head hash to pin. */
export function Chain() {
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<unknown>(null);
  const verify = () => api<Report>('GET', '/v1/global-events/verify/').then((r) => (setReport(r), setError(null)), setError);
  useEffect(() => void verify(), []);
  return (
    <section>
      <h1>Hash chain</h1>
      <Action label="Verify again" run={verify} />
      <ErrorMessage error={error} />
      {report ? (
        <dl class="report" aria-label="Verification">
          <dt>Result</dt>
          <dd class={report.verified ? 'ok' : 'bad'}>{report.verified ? 'Verified: the chain is unbroken' : 'Broken'}</dd>
          <dt>Events checked</dt>
          <dd>{report.checked}</dd>
          <dt>Head position</dt>
          <dd>{report.head_position}</dd>
          <dt>Head hash</dt>
          <dd>
            <code class="hash">{report.head_hash ?? '(none)'}</code>
          </dd>
          {report.first_break ? (
            <>
              <dt>First break</dt>
              <dd>
                {report.first_break.reason} at position {report.first_break.position}: event {report.first_break.id}, stream {report.first_break.stream}, revision {report.first_break.revision}
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}
