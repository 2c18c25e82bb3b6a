/**
 * A run executing in another tab, as this tab sees it: whether its lock is held (Web Locks see
 * every tab and worker of the origin), its progress as that tab's worker broadcasts it, a way to
 * ask that tab to pause or cancel it, and a wait for the lock to come free (that tab closed, or
 * its run stopped), after which this tab looks again and may take the run over.
 */
import { RUNS_CHANNEL, runLockName, type RunsMessage, type RunUpdate } from '../../workers/protocol';

const locks = (): LockManager | undefined => (globalThis.navigator as Navigator | undefined)?.locks;

/** Whether some tab holds the run's lock right now (call when this tab's worker is not running it). */
export async function heldElsewhere(runId: string): Promise<boolean> {
  const manager = locks();
  if (!manager) return false;
  const { held = [] } = await manager.query();
  return held.some((l) => l.name === runLockName(runId));
}

/** Ids of the runs whose lock some tab holds (for a list of runs; this tab's own included). */
export async function runsHeld(): Promise<Set<string>> {
  const manager = locks();
  if (!manager) return new Set();
  const { held = [] } = await manager.query();
  const prefix = runLockName('');
  return new Set(held.flatMap((l) => (l.name?.startsWith(prefix) ? [l.name.slice(prefix.length)] : [])));
}

/**
 * Resolves once nobody holds the run's lock; rejects with an AbortError when `signal` aborts.
 * The lock is taken and given back at once: the tab's worker takes it for real when it resumes.
 */
export async function whenReleased(runId: string, signal: AbortSignal): Promise<void> {
  const manager = locks();
  if (!manager) return;
  await manager.request(runLockName(runId), { signal }, async () => undefined);
}

let channel: BroadcastChannel | undefined;
const openChannel = () => (channel ??= typeof BroadcastChannel === 'function' ? new BroadcastChannel(RUNS_CHANNEL) : undefined);

/** Progress of runs executing in other tabs. Returns an unsubscribe. */
export function onOtherTabUpdate(listener: (update: RunUpdate) => void): () => void {
  const ch = openChannel();
  if (!ch) return () => undefined;
  const handler = (e: MessageEvent<RunsMessage>) => {
    if (e.data?.type === 'update') listener(e.data.update);
  };
  ch.addEventListener('message', handler);
  return () => ch.removeEventListener('message', handler);
}

/** Asks whichever tab runs `runId` to pause or cancel it; its next update tells how it went. */
export function askOtherTab(runId: string, action: 'pause' | 'cancel'): void {
  openChannel()?.postMessage({ type: 'control', runId, action } satisfies RunsMessage);
}
