import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_LOCK_STALE_MS, lockOutput } from '../../../cli/output-lock';

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

  it('an empty lock is held while it is young (its writer may be about to write its pid) and stale when old', async () => {
    const out = join(dir, 'out.jsonl');
    await writeFile(`${out}.lock`, '');
    expect(await lockOutput(out)).toEqual({ ok: false, holder: null });
    const old = new Date(Date.now() - EMPTY_LOCK_STALE_MS - 10_000);
    await utimes(`${out}.lock`, old, old);
    const lock = await lockOutput(out);
    expect(lock.ok).toBe(true);
    expect(await readFile(`${out}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    if (lock.ok) await lock.release();
  });

  it('while another command is taking over a stale lock, this one is refused and leaves both files alone', async () => {
    const out = join(dir, 'out.jsonl');
    const pid = await deadPid();
    await writeFile(`${out}.lock`, `${pid}\n`);
    await writeFile(`${out}.lock.takeover`, `${process.ppid}\n`);
    expect(await lockOutput(out)).toEqual({ ok: false, holder: pid });
    expect(await readFile(`${out}.lock`, 'utf8')).toBe(`${pid}\n`);
    expect(await readFile(`${out}.lock.takeover`, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it('a takeover guard left by a killed command is cleared, so the next claim takes the stale lock over', async () => {
    const out = join(dir, 'out.jsonl');
    const pid = await deadPid();
    await writeFile(`${out}.lock`, `${pid}\n`);
    await writeFile(`${out}.lock.takeover`, `${pid}\n`);
    expect((await lockOutput(out)).ok).toBe(false);
    expect(existsSync(`${out}.lock.takeover`)).toBe(false);
    const lock = await lockOutput(out);
    expect(lock.ok).toBe(true);
    expect(existsSync(`${out}.lock.takeover`)).toBe(false);
    if (lock.ok) await lock.release();
  });

  it('two processes racing for one stale lock: exactly one gets it', async () => {
    const out = join(dir, 'out.jsonl');
    const script = `import('${new URL('../../../cli/output-lock.ts', import.meta.url).href}').then(async (m) => { const l = await m.lockOutput(${JSON.stringify(out)}); process.stdout.write(l.ok ? 'ok' : 'held'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); })`;
    for (let round = 0; round < 3; round++) {
      await writeFile(`${out}.lock`, `${await deadPid()}\n`);
      // Each child holds what it got (a live holder) until both have answered: only then are they let go.
      const children = [0, 1].map(() => spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: join(import.meta.dirname, '../../..') }));
      const results = await Promise.all(children.map((child) => new Promise<string>((resolve) => {
        let text = '';
        child.stdout.on('data', (d) => {
          text += d;
          resolve(text);
        });
        child.on('exit', () => resolve(text));
      })));
      for (const child of children) child.stdin.end();
      await Promise.all(children.map((child) => new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)))));
      expect(results.sort()).toEqual(['held', 'ok']);
      await rm(`${out}.lock`, { force: true });
    }
  });
});
