import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (Linux's USER_HZ: 100 on every architecture Node runs on). */
const TICKS = 100;

/**
 * The CPU time (user + system, seconds) the calling thread has used, from /proc/thread-self/stat
 * (10 ms steps), or undefined where there is no such file. `process.cpuUsage()` counts every
 * thread of the process; a rebuild's end waits for its main thread (docs/decisions/0250).
 */
export function threadCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / TICKS : undefined;
  } catch {
    return undefined;
  }
}
