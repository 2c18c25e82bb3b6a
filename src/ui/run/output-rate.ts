/**
 * Tokens generated per second while a run samples, as the progress panel shows it: output tokens
 * gained since this page first saw the sample stage running, over the time since. Measured here,
 * on the page's clock, because the run's progress carries counts, not times; shown only once
 * some tokens have come in (a rate of nothing says nothing).
 */
import type { RunProgress, RunStatus } from '../../model/run-spec';

export interface OutputRate {
  /** The rate after this progress update, or null while there is none to show. */
  update(progress: Pick<RunProgress, 'stage' | 'tokens'>, status: RunStatus): number | null;
}

export function outputRate(now: () => number = () => performance.now()): OutputRate {
  let start: { at: number; tokens: number } | undefined;
  let last: number | null = null;
  return {
    update(progress, status) {
      if (progress.stage !== 'sample' || status !== 'running') {
        start = undefined;
        // The last rate stays on view once sampling is over.
        return last;
      }
      const t = now();
      if (!start) {
        start = { at: t, tokens: progress.tokens.output };
        return last;
      }
      const gained = progress.tokens.output - start.tokens;
      const seconds = (t - start.at) / 1000;
      if (gained > 0 && seconds > 0) last = gained / seconds;
      return last;
    },
  };
}
