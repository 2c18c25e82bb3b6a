/**
 * One writer per output file: `<out>.lock`, created exclusively ('wx') and holding the writer's
 * pid, so a second command on the same --out is refused at once instead of the two interleaving
 * their caches and renaming over each other. A lock whose pid is no longer running was left by a
 * killed process (kill -9, a crash, a power cut) and is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';
import { temporaryFile } from './command-io.ts';

export type LockResult = { ok: true; release(): Promise<void> } | { ok: false; holder: number | null };

/** Whether a process with this pid is running (EPERM: it is, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function holderOf(lock: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(lock, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

async function create(lock: string): Promise<boolean> {
  try {
    const handle = await open(lock, 'wx');
    try {
      await handle.writeFile(`${process.pid}\n`, 'utf8');
    } finally {
      await handle.close();
    }
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

export async function lockOutput(file: string): Promise<LockResult> {
  const lock = `${file}.lock`;
  const release = async () => {
    // Only our own lock: a lock taken over after ours was judged stale is someone else's now.
    if ((await holderOf(lock)) === process.pid) await rm(lock, { force: true });
  };
  if (await create(lock)) return { ok: true, release };
  const holder = await holderOf(lock);
  // A lock just created may not hold its pid yet (read between open and write): held, not stale.
  if (holder === null || holder === process.pid || alive(holder)) return { ok: false, holder };
  // The killed writer may have left its half-written temporary file behind.
  await rm(temporaryFile(file, holder), { force: true });
  await rm(lock, { force: true });
  // Two processes may find the same stale lock; 'wx' lets exactly one of them take it over.
  if (await create(lock)) return { ok: true, release };
  return { ok: false, holder: await holderOf(lock) };
}
