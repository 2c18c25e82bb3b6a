/**
 * One writer per output file: `<out>.lock`, created exclusively ('wx') and holding the writer's
 * pid, so a second command on the same --out is refused at once instead of the two interleaving
 * their caches and renaming over each other. A lock whose pid is no longer running was left by a
 * killed process (kill -9, a crash, a power cut) and is taken over; so is an empty lock older
 * than a minute (a writer killed between creating it and writing its pid).
 *
 * A takeover is itself guarded by `<out>.lock.takeover`, created exclusively: two commands that
 * find the same stale lock would otherwise both remove it, and the second could remove the lock
 * the first had just made, leaving two writers. With the guard exactly one takes over and checks
 * that the lock is still the stale one before replacing it; the other is refused.
 */
import { open, readFile, rm, stat } from 'node:fs/promises';
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

/** An empty lock older than this was left by a writer killed before it wrote its pid. */
export const EMPTY_LOCK_STALE_MS = 60_000;

/** What a lock file says: its holder, or that it is empty and how old it is (null: no lock). */
async function readLock(lock: string): Promise<{ holder: number | null; ageMs: number } | null> {
  try {
    const [text, info] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
    const pid = Number(text.trim());
    return { holder: Number.isInteger(pid) && pid > 0 ? pid : null, ageMs: Date.now() - info.mtimeMs };
  } catch {
    return null;
  }
}

/** Whether a lock as read was left by a writer that is gone. */
function stale(read: { holder: number | null; ageMs: number }): boolean {
  if (read.holder === null) return read.ageMs > EMPTY_LOCK_STALE_MS;
  return read.holder !== process.pid && !alive(read.holder);
}

export async function lockOutput(file: string): Promise<LockResult> {
  const lock = `${file}.lock`;
  const release = async () => {
    // Only our own lock: a lock taken over after ours was judged stale is someone else's now.
    if ((await holderOf(lock)) === process.pid) await rm(lock, { force: true });
  };
  if (await create(lock)) return { ok: true, release };
  const found = await readLock(lock);
  // Gone between our create and read: its writer just finished; try once more.
  if (!found) return (await create(lock)) ? { ok: true, release } : { ok: false, holder: await holderOf(lock) };
  // A lock just created may not hold its pid yet (read between open and write): held, not stale.
  if (!stale(found)) return { ok: false, holder: found.holder };
  const guard = `${lock}.takeover`;
  if (!(await create(guard))) {
    // Someone else is taking over. A guard whose maker is gone (killed mid-takeover) is cleared,
    // so the next attempt can take over; this one is refused.
    const maker = await readLock(guard);
    if (maker && stale(maker)) await rm(guard, { force: true });
    return { ok: false, holder: found.holder };
  }
  try {
    // Between our read and the guard another command may have taken the lock over and made its own.
    const now = await readLock(lock);
    if (now && (now.holder !== found.holder || !stale(now))) return { ok: false, holder: now.holder };
    // The killed writer may have left its half-written temporary file behind.
    if (found.holder !== null) await rm(temporaryFile(file, found.holder), { force: true });
    await rm(lock, { force: true });
    if (await create(lock)) return { ok: true, release };
    return { ok: false, holder: await holderOf(lock) };
  } finally {
    await rm(guard, { force: true });
  }
}
