import { PassThrough } from 'node:stream';

/** Runs a command-line tool in-process; its exit code and output as text. */
export async function runCli(tool: (out: PassThrough, err: PassThrough) => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: string[] = [];
  const errors: string[] = [];
  out.on('data', (c: Buffer) => chunks.push(c.toString()));
  err.on('data', (c: Buffer) => errors.push(c.toString()));
  const code = await tool(out, err);
  return { code, out: chunks.join(''), err: errors.join('') };
}
