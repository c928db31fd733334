import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

const KILL_GRACE_MS = 5_000;

/** Whether a child process is still running (no exit code or signal yet). */
export const alive = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

/** Resolves once the child has exited, or with false after `ms`. */
export function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (!alive(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** SIGTERM, then SIGKILL when the child has not exited within the grace period. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (!alive(child)) return;
  child.kill('SIGTERM');
  if (await exited(child, KILL_GRACE_MS)) return;
  child.kill('SIGKILL');
  await exited(child, KILL_GRACE_MS);
}

/** `reaper.ts` as a child process that undoes what it is told about if this process is killed outright. */
function startReaper(root: string): ChildProcess {
  const reaper = spawn(process.execPath, ['--import', 'tsx', join(root, 'infra', 'bench', 'reaper.ts')], { cwd: root, stdio: ['pipe', 'ignore', 'inherit'] });
  reaper.stdin?.on('error', () => {}); // a reaper that is gone cannot help; the in-process cleanup still runs
  return reaper;
}

/**
 * What the benchmark must undo whatever happens: child processes to stop and temporary
 * directories to delete. `run()` does it once; the `exit` hook is the synchronous last resort,
 * and the reaper process covers this process being killed with no chance to run either.
 */
export class Cleanup {
  private readonly children: ChildProcess[] = [];
  private readonly dirs: string[] = [];
  private readonly aborts: (() => void)[] = [];
  private readonly reaper: ChildProcess;
  private done: Promise<void> | null = null;

  constructor(root: string) {
    this.reaper = startReaper(root);
    process.once('exit', () => {
      for (const child of this.children) if (alive(child)) child.kill('SIGKILL');
      for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
    });
  }

  child(child: ChildProcess): ChildProcess {
    this.children.push(child);
    if (child.pid !== undefined) this.reaper.stdin?.write(`pid ${child.pid}\n`);
    return child;
  }

  dir(path: string): string {
    this.dirs.push(path);
    this.reaper.stdin?.write(`dir ${path}\n`);
    return path;
  }

  /** Something in flight to stop first (a load run); returns the function that unregisters it. */
  onAbort(abort: () => void): () => void {
    this.aborts.push(abort);
    return () => {
      const i = this.aborts.indexOf(abort);
      if (i >= 0) this.aborts.splice(i, 1);
    };
  }

  run(): Promise<void> {
    this.done ??= (async () => {
      for (const abort of this.aborts.splice(0)) abort();
      await Promise.all(this.children.map(stopChild));
      await Promise.all(this.dirs.map((dir) => rm(dir, { recursive: true, force: true })));
      this.dirs.length = 0;
      this.reaper.stdin?.end('done\n');
    })();
    return this.done;
  }
}
