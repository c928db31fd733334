import { expect } from 'chai';
import { workerTask } from '../../infra/rebuild/worker-task.js';

const here = new URL('../support/workers/x.ts', import.meta.url).href;

describe('a module run in a worker thread (the rebuild of the delivery index)', () => {
  it('answers the message the module posts, from the TypeScript sources too', async () => {
    const task = workerTask<{ doubled: number }>(here, 'echo', { n: 21 });
    expect(await task.result).to.deep.equal({ doubled: 42 });
    await task.stop();
  });

  it('passes on what the module tells before its answer, and rejects that when it never told', async () => {
    const task = workerTask<{ doubled: number }, { first: number }>(here, 'echo', { n: 4, told: true });
    expect(await task.early).to.deep.equal({ first: 4 });
    expect(await task.result).to.deep.equal({ doubled: 8 });
    await task.stop();
    const silent = workerTask<{ doubled: number }, { first: number }>(here, 'echo', { n: 5 });
    expect(await silent.result).to.deep.equal({ doubled: 10 });
    let error: unknown;
    await silent.early.catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/ended .* without telling/);
    await silent.stop();
  });

  it("rejects with the module's error and its message, a SQLite error too", async () => {
    const task = workerTask(here, 'echo', { n: 1, fail: true });
    let error: unknown;
    await task.result.catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect(String(error)).to.contain('SqliteError: no such table: missing_1');
    await task.stop();
  });

  it('ends a thread that is still running when stopped, and the answer it never gave rejects', async () => {
    const task = workerTask(here, 'echo', { n: 1, hang: true });
    await task.stop();
    let error: unknown;
    await task.result.catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/ended .* without an answer/);
  });
});
