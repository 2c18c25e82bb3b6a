import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockOutput } from '../../../cli/output-lock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (a lock it held would be stale). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

describe('lockOutput', () => {
  it('creates <out>.lock holding this pid, refuses a second claim, and releases', async () => {
    const out = join(dir, 'out.jsonl');
    const first = await lockOutput(out);
    expect(first.ok).toBe(true);
    expect(await readFile(`${out}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    expect(await lockOutput(out)).toEqual({ ok: false, holder: process.pid });
    if (first.ok) await first.release();
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it('a lock held by a running process is refused, naming it', async () => {
    const out = join(dir, 'out.jsonl');
    await writeFile(`${out}.lock`, `${process.ppid}\n`);
    expect(await lockOutput(out)).toEqual({ ok: false, holder: process.ppid });
    expect(await readFile(`${out}.lock`, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('a lock whose process is gone is taken over, with that process\'s temporary file', async () => {
    const out = join(dir, 'out.jsonl');
    const pid = await deadPid();
    await writeFile(`${out}.lock`, `${pid}\n`);
    await writeFile(`${out}.${pid}.tmp`, 'half a fi');
    const lock = await lockOutput(out);
    expect(lock.ok).toBe(true);
    expect(await readFile(`${out}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    expect(existsSync(`${out}.${pid}.tmp`)).toBe(false);
    if (lock.ok) await lock.release();
  });

  it('release leaves a lock that is no longer its own', async () => {
    const out = join(dir, 'out.jsonl');
    const lock = await lockOutput(out);
    await writeFile(`${out}.lock`, `${process.ppid}\n`);
    if (lock.ok) await lock.release();
    expect(await readFile(`${out}.lock`, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('a lock in a folder that does not exist is an error, not a refusal', async () => {
    await expect(lockOutput(join(dir, 'nope', 'out.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});
