import { EventStoreDbEventStore } from '../../infra/eventstoredb/event-store.js';
import { eventStoreContract } from '../contracts/event-store.contract.js';

const url = process.env.EVENTSTORE_URL;

// Every test writes to fresh streams (test-<uuid>) and filters $all by them: no cleanup needed.
describe('EventStore contract: EventStoreDB', () => {
  if (url) eventStoreContract(async () => new EventStoreDbEventStore(url));
  else
    it('runs when EVENTSTORE_URL is set', function () {
      console.log('      skipped: EVENTSTORE_URL is not set (docker compose up eventstoredb, then EVENTSTORE_URL=esdb://127.0.0.1:2113?tls=false)');
      this.skip();
    });
});
