// `npm run bench`: the service as a child process on a fresh data directory, seeded through
// the management API, measured on its delivery API against a bare node:http baseline.
import { mkdtemp } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBaseline } from './baseline.js';
import { cpuSeconds } from './cpu-time.js';
import { Cleanup } from './cleanup.js';
import { deliveryBearerToken } from './credentials.js';
import { measure, type Measurement, type Target } from './load.js';
import { benchOptions } from './options.js';
import { rebuildScenario } from './rebuild.js';
import { API_PREFIX, COLLECTION_ALIAS, sampleBodies, seedResources, setupContent, waitForDelivery } from './seed.js';
import { searchBenchOptions, searchScenario } from './search.js';
import { pathologicalQuery } from './pathological.js';
import { startServiceChild, type ChildOutput } from './service.js';
import { table, type Row } from './table.js';
import { memory } from './memory.js';
import { restart } from './restart.js';
import { startRestart } from './start-restart.js';
import { loadAverage, NO_SCENARIO, printFigures, runScenarios, unknownScenarios, type Scenario } from './scenario.js';
import { visibility } from './visibility.js';
import { writes } from './writes.js';
import { deliveryProcesses } from './delivery-processes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIST_LIMIT = 20;
/** The filtered-list scenario's filter: about half of the documents match (resourceData in seed.ts). */
const LIST_FILTER = 'where__published__eq=true&where__views__gte=1000';

/**
 * The scenarios after delivery get-one and list, in order (BENCH_SCENARIOS picks some by name):
 * restart first, on the seeded data alone; memory after the writes, counting what they made.
 */
const SCENARIOS: readonly Scenario[] = [restart, startRestart, deliveryProcesses, writes, visibility, memory];
const cleanup = new Cleanup(ROOT);
let finishing = false;
/** What the benchmark is doing, for the message when the service dies under it. */
let phase = 'starting';
/** The service's output once it runs, to show its error logs when the benchmark fails. */
let serviceOutput: ChildOutput | null = null;

/** Stops everything and exits; only the first call counts. */
function finish(code: number): void {
  if (finishing) return;
  finishing = true;
  const hardStop = setTimeout(() => process.exit(code || 1), 20_000);
  hardStop.unref();
  void cleanup.run().finally(() => process.exit(code));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the child processes and deleting the data directory\n`);
    finish(130);
  });
}

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const o = benchOptions();
  const unknown = unknownScenarios(o.scenarios, SCENARIOS);
  if (unknown.length > 0) {
    process.stderr.write(`BENCH_SCENARIOS: no scenario named ${unknown.join(', ')}; the names are ${[...SCENARIOS.map((s) => s.name), NO_SCENARIO].join(', ')}\n`);
    return 2;
  }
  const cores = availableParallelism();
  const startLoad = loadAverage();
  log(`machine: ${cores} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, ${process.platform}/${process.arch}`);
  log(`settings: ${o.resources} resources, ${o.seconds} s per scenario after ${o.warmupSeconds} s warm-up, ${o.connections} connections`);

  const dataDir = cleanup.dir(await mkdtemp(join(tmpdir(), 'cms-bench-')));
  const service = await startServiceChild(cleanup, ROOT, dataDir, { execArgv: o.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfileDir}`] : [] });
  serviceOutput = service.output;
  service.child.once('exit', (code, signal) => {
    if (finishing) return;
    const how = signal ? `killed by ${signal}` : code === 0 ? 'exit code 0, which infra/main.ts only gives after SIGINT or SIGTERM' : `exit code ${code}`;
    process.stderr.write(`\nthe service exited during ${phase} (${how}); its last output:\n${service.output.tail.join('\n')}\n`);
    finish(1);
  });
  const b = service.bootstrap;
  log(`service: management ${b.base_url}, delivery ${b.delivery_url}`);

  phase = 'setup';
  const collection = await setupContent(b);
  phase = 'seeding';
  const seeded = await seedResources(b, collection, o.resources, o.seedConcurrency);
  const seedRate = o.resources / seeded.seconds;
  log(`seeded ${o.resources} resources in ${seeded.seconds.toFixed(1)} s: ${seedRate.toFixed(0)} resources/s accepted (POST ?wait=false, ${o.seedConcurrency} in flight)`);
  phase = 'waiting for the delivery list';
  const indexSeconds = await waitForDelivery(b, seeded.keys, 60_000 + o.resources * 10);
  const total = seeded.seconds + indexSeconds;
  log(`all ${o.resources} on the delivery list ${indexSeconds.toFixed(1)} s later: ${(o.resources / total).toFixed(0)} resources/s end to end`);

  const bodies = await sampleBodies(b, seeded.keys, LIST_LIMIT);
  log(`bodies: get-one ${Buffer.byteLength(bodies.getOne)} bytes, list (limit=${LIST_LIMIT}) ${Buffer.byteLength(bodies.list)} bytes`);
  const baseline = await startBaseline(cleanup, ROOT, bodies);

  const delivery = new URL(b.delivery_url);
  const collectionPath = `${delivery.pathname.replace(/\/$/, '')}/${API_PREFIX}/${COLLECTION_ALIAS}/`;
  const randomKey = () => seeded.keys[Math.floor(Math.random() * seeded.keys.length)] as string;
  const getOne = (name: string, origin: string): Target => ({ name, origin, path: () => `${collectionPath}${randomKey()}/` });
  const list = (name: string, origin: string): Target => ({ name, origin, path: () => `${collectionPath}?limit=${LIST_LIMIT}` });

  const run = (target: Target, connections = o.connections): Promise<Measurement> => {
    if (finishing) throw new Error('interrupted');
    phase = `scenario ${target.name}`;
    return measure(cleanup, target, { ...o, connections });
  };
  const rows: Row[] = [];
  // The service's CPU per delivery read, warm-up included: a figure the machine's other load moves less than a ratio.
  const cpuLines: string[] = [];
  const runTimed = async (target: Target): Promise<Measurement> => {
    const pid = service.child.pid;
    const before = pid === undefined ? null : await cpuSeconds(pid);
    const m = await run(target);
    const after = pid === undefined ? null : await cpuSeconds(pid);
    if (before && after) {
      const per = (seconds: number): string => ((seconds * 1e6) / (m.requests + m.warmupRequests)).toFixed(0);
      cpuLines.push(`${m.name}: service CPU ${per(after.process - before.process)} µs a request (main thread ${per(after.main - before.main)} µs)`);
    }
    return m;
  };
  const oneBase = await run(getOne('get-one (bare http)', baseline));
  rows.push({ m: await runTimed(getOne('get-one', delivery.origin)), baseline: oneBase }, { m: oneBase });
  const token = await deliveryBearerToken(b);
  rows.push({ m: await runTimed({ ...getOne('get-one (Bearer key)', delivery.origin), headers: () => ({ authorization: `Bearer ${token}` }) }), baseline: oneBase });
  const listBase = await run(list(`list limit=${LIST_LIMIT} (bare http)`, baseline));
  rows.push({ m: await runTimed(list(`list limit=${LIST_LIMIT}`, delivery.origin)), baseline: listBase }, { m: listBase });
  const filtered: Target = { name: `list limit=${LIST_LIMIT} filtered`, origin: delivery.origin, path: () => `${collectionPath}?limit=${LIST_LIMIT}&${LIST_FILTER}` };
  rows.push({ m: await runTimed(filtered), baseline: listBase });
  // The same filter with a new upper bound no document reaches on every request: never answered from served bytes (docs/decisions/0131).
  let n = 0;
  const fresh: Target = { name: `list limit=${LIST_LIMIT} filtered, each query new`, origin: delivery.origin, path: () => `${collectionPath}?limit=${LIST_LIMIT}&${LIST_FILTER}&where__views__lte=${1e12 + n++}` };
  rows.push({ m: await run(fresh), baseline: listBase });
  phase = 'pathological query';
  const pathological = await pathologicalQuery(b, collection, `${delivery.origin}${collectionPath}_search`);

  const search = searchBenchOptions();
  phase = 'search scenario';
  const searched = search ? await searchScenario({ cleanup, root: ROOT, baseline, listBaseline: listBase, measure: (t) => run(t), log }, search) : null;
  rows.push(...(searched?.rows ?? []));

  phase = 'rebuild';
  const rebuildLines = await rebuildScenario(ROOT, dataDir, cleanup, o.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfileDir}`] : []);

  const base = { root: ROOT, cleanup, options: o, service, dataDir, collection, keys: seeded.keys, deliveryPath: collectionPath, log };
  const more = await runScenarios(SCENARIOS, { ...base, baseline: { getOne: oneBase, list: listBase, origin: baseline }, measure: (t, c) => run(t, c), phase: (what) => (phase = what) });
  rows.push(...more.rows);

  phase = 'reporting';
  log('');
  log(table(rows));
  for (const line of cpuLines) log(line);
  for (const line of rebuildLines) log(line);
  log('');
  printFigures(log, [...pathological, ...(searched?.figures ?? []), ...more.figures]);
  log(`seed: ${seedRate.toFixed(0)} resources/s accepted, ${(o.resources / total).toFixed(0)} resources/s until all delivered`);
  log(`machine: ${cores} cores, Node ${process.version}; the service, the baseline and the load generator share them`);
  const endLoad = loadAverage();
  const busy = Math.max(Number(startLoad), Number(endLoad)) > cores ? `; above ${cores}, other work on the machine competed with the run` : '';
  log(`load average: ${startLoad} at the start, ${endLoad} at the end${busy}`);
  if (service.output.warningCount > 0) {
    log(`the service logged ${service.output.warningCount} lines at warn level or above, the first ones:`);
    for (const line of service.output.warnings) log(`  ${line}`);
  }
  const bad = rows.filter((row) => row.m.errors > 0 || row.m.non2xx > 0);
  if (bad.length > 0) {
    log(`FAILED: errors or non-2xx responses in ${bad.map((row) => row.m.name).join(', ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => finish(code),
  (error: unknown) => {
    if (finishing) return; // interrupted: the signal handler is already cleaning up
    process.stderr.write(`\nbench failed during ${phase}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    if (serviceOutput && serviceOutput.warningCount > 0) {
      process.stderr.write(`the service logged ${serviceOutput.warningCount} lines at warn level or above, the first ones:\n${serviceOutput.warnings.join('\n')}\n`);
    }
    finish(1);
  },
);
