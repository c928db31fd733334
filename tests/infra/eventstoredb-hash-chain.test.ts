import { expect } from 'chai';
import type { AllStreamRecordedEvent } from '@eventstore/db-client';
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../commands/ports.js';
import { chainEvents, chainRowOf, firstRevision, GENESIS, hashOf, verifyRows } from '../../infra/eventstoredb/hash-chain.js';
import { toStored } from '../../infra/eventstoredb/mapping.js';

const metadata = { actor_type: 'system', actor: null, ip_address: null, referer: null, timestamp: '2026-01-01T00:00:00Z' } as const;
const event = (type: string, data: unknown): NewEvent => ({ id: randomUUID(), type, data, metadata });

let commit = 0n;
/** An appended event as EventStoreDB gives it back: JSON round-tripped, with its position. */
const recorded = (e: NewEvent, stream: string, revision: number): AllStreamRecordedEvent =>
  ({
    id: e.id.toUpperCase(),
    streamId: stream,
    revision: BigInt(revision),
    type: e.type,
    data: JSON.parse(JSON.stringify(e.data)),
    metadata: JSON.parse(JSON.stringify(e.metadata)),
    position: { commit: (commit += 10n), prepare: commit },
    isJson: true,
    created: new Date(),
  }) as unknown as AllStreamRecordedEvent;

async function* rowsOf(events: AllStreamRecordedEvent[]) {
  for (const e of events) yield chainRowOf(e);
}

describe('EventStoreDB hash chain in the event metadata (no server needed)', () => {
  function log(): AllStreamRecordedEvent[] {
    const first = chainEvents([event('A', { n: 1 }), event('A', { n: 2 })], 'a-1', firstRevision('no_stream', 'no_stream'), GENESIS);
    const second = chainEvents([event('B', { nested: { k: [1, 2] } })], 'b-1', firstRevision('no_stream', 'no_stream'), first.last);
    const third = chainEvents([event('A', { n: 3 })], 'a-1', firstRevision(1, 1), second.last);
    return [
      recorded(first.events[0]!, 'a-1', 0),
      recorded(first.events[1]!, 'a-1', 1),
      recorded(second.events[0]!, 'b-1', 0),
      recorded(third.events[0]!, 'a-1', 2),
    ];
  }

  it('chains appends across streams, and readers never see the hash', async () => {
    const events = log();
    const report = await verifyRows(rowsOf(events));
    expect(report).to.include({ verified: true, checked: 4 });
    expect(report.head_hash).to.equal(hashOf(events[3]!.metadata));
    expect(toStored(events[0]!).metadata).to.deep.equal(metadata);
  });

  it('reports an event whose data changed, and skips events written before the chain existed', async () => {
    const events = log();
    (events[2]!.data as { nested: { k: number[] } }).nested.k.push(3);
    const report = await verifyRows(rowsOf(events));
    expect(report.first_break).to.include({ stream: 'b-1', revision: 0, reason: 'hash_mismatch' });

    const legacy = recorded(event('Old', {}), 'old-1', 0);
    expect((await verifyRows(rowsOf([legacy, ...log()])))).to.include({ verified: true, checked: 4 });
  });

  it('numbers revisions from the expected revision or the current one', () => {
    expect(firstRevision('no_stream', 'no_stream')).to.equal(0);
    expect(firstRevision(4, 4)).to.equal(5);
    expect(firstRevision('any', 7)).to.equal(8);
    expect(firstRevision('stream_exists', 0)).to.equal(1);
  });
});
