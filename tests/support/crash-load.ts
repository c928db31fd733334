import type { ChildService } from './child-service.js';

export type WriteKind = 'create' | 'upsert' | 'revision';

/** A write the service answered with 2xx: it must survive a crash. Its payload title is `w-{n}`, unique. */
export type Ack = { readonly n: number; readonly kind: WriteKind; readonly resource: string; readonly externalId: string | null };

export type LoadResult = {
  readonly acked: readonly Ack[];
  /** Writes sent and never answered (the connection died with the process). */
  readonly unanswered: number;
  /** Answers by status code, 2xx included. */
  readonly statuses: ReadonlyMap<number, number>;
};

export type LoadPlan = {
  readonly folder: string;
  /** Most writes sent in all. */
  readonly writes: number;
  /** SIGKILL once this many writes are acknowledged. */
  readonly killAfter: number;
  readonly concurrency: number;
  /** How many external_ids the upserts share (so most upserts hit an existing resource). */
  readonly externalIds: number;
};

/**
 * Sends creates, upserts and revisions concurrently, and kills the service with SIGKILL once
 * `killAfter` of them are acknowledged, with the others still in flight.
 */
export async function crashUnderLoad(child: ChildService, plan: LoadPlan): Promise<LoadResult> {
  const { base, bootstrap } = child;
  const root = `${base}/v1/${bootstrap.environment}/collections/${plan.folder}/resources/`;
  const headers = { authorization: `Bearer ${bootstrap.management_token}`, 'content-type': 'application/json' };
  const acked: Ack[] = [];
  const created: string[] = [];
  const statuses = new Map<number, number>();
  let unanswered = 0;
  let next = 0;
  let killed = false;

  const send = async (n: number): Promise<void> => {
    const body = JSON.stringify({ data: { title: `w-${n}`, views: n } });
    const pick = n % 4;
    const parent = created.length > 0 ? created[(n * 7919) % created.length] : undefined;
    const kind: WriteKind = pick === 2 ? 'upsert' : pick === 3 && parent ? 'revision' : 'create';
    const externalId = kind === 'upsert' ? `ext-${n % plan.externalIds}` : null;
    const url =
      kind === 'create' ? `${root}?wait=false` : kind === 'upsert' ? `${root}?external_id=${externalId}&wait=false` : `${root}${parent}/revisions/`;
    let response: Response;
    try {
      response = await fetch(url, { method: kind === 'upsert' ? 'PUT' : 'POST', headers, body });
    } catch {
      unanswered++;
      return;
    }
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const answer = (await response.json().catch(() => null)) as { key?: string } | null;
    if (response.status < 200 || response.status >= 300) return;
    const resource = kind === 'revision' ? (parent as string) : String(answer?.key);
    acked.push({ n, kind, resource, externalId });
    if (kind === 'create') created.push(resource);
    if (acked.length >= plan.killAfter && !killed) {
      killed = true;
      child.process.kill('SIGKILL');
    }
  };

  const worker = async (): Promise<void> => {
    while (!killed && next < plan.writes) await send(next++);
  };
  await Promise.all(Array.from({ length: plan.concurrency }, worker));
  if (!killed) child.process.kill('SIGKILL');
  await child.exited;
  return { acked, unanswered, statuses };
}
