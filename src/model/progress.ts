/**
 * The one small progress shape of a long step that is not a run: opening a report, loading a hub
 * dataset, reading or submitting a batch. A phase, and where the phase can count, how much of how
 * much; the item it is on; and, when the step words its own progress, the words. Plain data: it
 * crosses the worker boundary as it is. A run's counters are a document of their own
 * (`RunProgress`, run-spec.ts), and an in-page model's load lists its files (`ModelLoadProgress`).
 *
 * Cancelling any of these steps is an `AbortSignal` passed in, never a callback that is polled.
 */

export type ProgressUnit = 'bytes' | 'rows' | 'lines' | 'samples' | 'requests';

export interface Progress<Phase extends string = string> {
  phase: Phase;
  /** How much is done so far; absent when the phase cannot count (JSON.parse is one call). */
  done?: number;
  total?: number;
  unit?: ProgressUnit;
  /** What the phase is on now (a file's name or path). */
  item?: string;
  /** The step's own words for where it is ("Batch 3: in_progress — 40 succeeded …"), when it has them. */
  text?: string;
}

export type OnProgress<P extends Progress = Progress> = (p: P) => void;

/** done / total as a whole percentage 0–100, or null when the phase cannot count. */
export function progressPercent(p: Progress): number | null {
  if (p.done === undefined || p.total === undefined || !(p.total > 0)) return null;
  return Math.min(100, Math.max(0, Math.floor((p.done / p.total) * 100)));
}

/** One event of an in-page model's download and load (a file's status and bytes), as plain data: it crosses the worker boundary. */
export interface ModelProgress {
  status: string;
  file?: string;
  /** 0–100 */
  progress?: number;
  loaded?: number;
  total?: number;
}
