// The reaper: a small process that outlives the benchmark only when the benchmark is killed
// outright (SIGKILL, or the tsx CLI's forced kill after a Ctrl-C it thinks went unanswered).
// The benchmark writes `pid N` and `dir PATH` lines to its stdin and `done` at a clean end;
// when stdin closes without `done`, it stops those processes and deletes those directories.
// It ignores SIGINT and SIGTERM so that a Ctrl-C to the process group does not take it first.
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const GRACE_MS = 5_000;

const pids: number[] = [];
const dirs: string[] = [];
let done = false;
let buffered = '';

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stop(pid: number): Promise<void> {
  if (!running(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < GRACE_MS && running(pid); waited += 100) await sleep(100);
  if (running(pid)) process.kill(pid, 'SIGKILL');
  for (let waited = 0; waited < GRACE_MS && running(pid); waited += 100) await sleep(100);
}

async function reap(): Promise<void> {
  if (done) return;
  await Promise.allSettled(pids.map(stop));
  await Promise.allSettled(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (buffered + chunk).split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) {
    if (line === 'done') done = true;
    else if (line.startsWith('pid ')) {
      const pid = Number(line.slice(4));
      if (Number.isInteger(pid) && pid > 0) pids.push(pid);
    } else if (line.startsWith('dir ')) dirs.push(line.slice(4));
  }
});
process.stdin.on('close', () => {
  void reap().finally(() => process.exit(0));
});
