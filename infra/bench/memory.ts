import { readFile } from 'node:fs/promises';
import { expect } from './http.js';
import type { Scenario } from './scenario.js';
import type { Figure } from './table.js';

export const MEMORY_TARGET_MB = 400;
/** The resource count the memory goal is stated for. */
export const MEMORY_GOAL_RESOURCES = 100_000;

/** Resident memory of a process in MB: now (VmRSS) and its peak since it started (VmHWM). */
export type Resident = { readonly now: number; readonly peak: number };

/** VmRSS and VmHWM of a `/proc/<pid>/status` text, in MB; null when either is missing. */
export function parseResident(status: string): Resident | null {
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  const now = kb('VmRSS') / 1024;
  const peak = kb('VmHWM') / 1024;
  return Number.isFinite(now) && Number.isFinite(peak) ? { now, peak } : null;
}

/** VmRSS and VmHWM (peak) of a process in MB, from Linux's /proc; null elsewhere. */
export async function resident(pid: number): Promise<Resident | null> {
  try {
    return parseResident(await readFile(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The memory rows: resident memory at rest and its peak, each held against the goal; the goal is
 * met only when both are under it, and judged only with at least 100,000 resources.
 */
export function memoryFigures(size: Resident, resources: number): Figure[] {
  const scaled = resources >= MEMORY_GOAL_RESOURCES;
  const bothUnder = size.now < MEMORY_TARGET_MB && size.peak < MEMORY_TARGET_MB;
  const target = `< ${MEMORY_TARGET_MB} MB at ${MEMORY_GOAL_RESOURCES}`;
  const note = scaled ? '' : `fewer than ${MEMORY_GOAL_RESOURCES} resources: set BENCH_RESOURCES=${MEMORY_GOAL_RESOURCES} to hold it against the goal`;
  return [
    { name: `service RSS at rest with ${resources} resources`, value: `${size.now.toFixed(0)} MB`, target, met: scaled ? size.now < MEMORY_TARGET_MB : undefined, note },
    {
      name: `service RSS peak (VmHWM) with ${resources} resources`,
      value: `${size.peak.toFixed(0)} MB`,
      target,
      met: scaled ? bothUnder : undefined,
      note: scaled ? 'met only when the value at rest is under the goal too' : note,
    },
  ];
}

/**
 * The service's resident memory with every resource the run created so far (BENCH_RESOURCES
 * seeded, plus the write scenarios'): run it after them. The peak covers the seeding and every
 * scenario before this one. The goal is for 100,000 resources.
 */
export const memory: Scenario = {
  name: 'memory',
  async run(ctx) {
    const b = ctx.service.bootstrap;
    const pid = ctx.service.child.pid;
    const page = await expect<{ count: number }>(200, 'resource count', `${b.base_url}/v1/${b.environment}/collections/${ctx.collection}/resources/?limit=1`, {
      token: b.management_token,
    });
    const size = pid === undefined ? null : await resident(pid);
    if (!size) return { figures: [{ name: 'service RSS', value: 'n/a', note: 'needs Linux /proc' }] };
    return { figures: memoryFigures(size, page.count) };
  },
};
