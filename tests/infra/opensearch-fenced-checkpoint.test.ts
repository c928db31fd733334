import { expect } from 'chai';
import type { Client } from '@opensearch-project/opensearch';
import { OpenSearchSearchIndex } from '../../infra/opensearch/search-index.js';
import { LeaseLost } from '../../projections/lease.js';
import { OpenSearchModel } from '../support/opensearch-model-server.js';

const CONSUMER = 'delivery-index';
const nothing = async (): Promise<void> => {};
const indexOn = (client: Client): OpenSearchSearchIndex => new OpenSearchSearchIndex('http://127.0.0.1:1', { prefix: 'fenced', client });

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('OpenSearch delivery index: checkpoints fenced by lease epochs (on a model of the server)', () => {
  it('refuses the checkpoint of a holder fenced out by a later epoch, and its fence again; the successor writes on', async () => {
    const model = new OpenSearchModel();
    const late = indexOn(model.asClient());
    const successor = indexOn(model.asClient());
    await late.fence(CONSUMER, 1);
    await late.unitOfWork(CONSUMER, '0001', nothing);
    expect(await successor.checkpoint(CONSUMER)).to.equal('0001');

    await successor.fence(CONSUMER, 2);
    const error = await refusal(late.unitOfWork(CONSUMER, '0002', nothing));
    expect(error).to.be.instanceOf(LeaseLost);
    expect(await successor.checkpoint(CONSUMER)).to.equal('0001');

    await successor.unitOfWork(CONSUMER, '0003', nothing);
    expect(await late.checkpoint(CONSUMER)).to.equal('0003');
    const again = await refusal(late.fence(CONSUMER, 1));
    expect(again).to.be.instanceOf(LeaseLost);
    expect((again as LeaseLost).stored).to.equal(2);
  });

  it('refuses a fence when the successor fenced between its read and its write (if_seq_no)', async () => {
    const model = new OpenSearchModel();
    const successor = indexOn(model.asClient());
    const client = model.asClient();
    let fenceBetween = false;
    const racing = {
      ...client,
      get: async (...args: Parameters<Client['get']>) => {
        const answer = await (client.get as (...a: unknown[]) => Promise<unknown>)(...args);
        if (fenceBetween) {
          fenceBetween = false;
          await successor.fence(CONSUMER, 2);
        }
        return answer;
      },
    } as unknown as Client;
    const late = indexOn(racing);
    await late.fence(CONSUMER, 1);
    await late.unitOfWork(CONSUMER, '0001', nothing);
    fenceBetween = true;
    const error = await refusal(late.fence(CONSUMER, 1));
    expect(error).to.be.instanceOf(LeaseLost);
    expect(await successor.checkpoint(CONSUMER)).to.equal('0001');
    await successor.unitOfWork(CONSUMER, '0002', nothing);
    expect(await successor.checkpoint(CONSUMER)).to.equal('0002');
  });

  it('writes the checkpoint of a consumer never fenced as before (a rebuild, one process)', async () => {
    const index = indexOn(new OpenSearchModel().asClient());
    await index.unitOfWork(CONSUMER, '0001', nothing);
    await index.unitOfWork(CONSUMER, '0002', nothing);
    expect(await index.checkpoint(CONSUMER)).to.equal('0002');
  });

  it('gives a checkpoints index made before the lease epochs its epoch field, and fences on it', async () => {
    const model = new OpenSearchModel();
    const client = model.asClient();
    await client.indices.create({ index: 'fenced-checkpoints', body: { mappings: { dynamic: 'strict', properties: { position: { type: 'keyword', index: false } } }, settings: {} } });
    await client.index({ index: 'fenced-checkpoints', id: CONSUMER, body: { position: '0007' } });
    const index = indexOn(model.asClient());
    await index.fence(CONSUMER, 1);
    const { body } = await client.indices.getMapping({ index: 'fenced-checkpoints' });
    expect(Object.keys(body['fenced-checkpoints']!.mappings.properties ?? {})).to.have.members(['position', 'epoch']);
    expect(await index.checkpoint(CONSUMER)).to.equal('0007');
  });
});
