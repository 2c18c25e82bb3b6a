/**
 * How much of each sample a run's report keeps, decided once from the number of samples per
 * model, for the sample stage (which leaves raw replies out of the rows) and the score stage
 * (which leaves per-sample lists out of the report).
 *
 * Every level keeps what the numbers need and what the drill-down shows first: each question's
 * classes with their labels and sizes. Above the limits the report would hold hundreds of
 * megabytes that nobody reads whole: at 40,000 questions × 50 samples the raw replies alone are
 * hundreds of megabytes in the worker and in the stored report, and even the per-sample
 * answers are 2 million objects, written into IndexedDB in one value and held by the run worker
 * while it does, which took the browser's processes past 1 GB. What is left out stays in the
 * sample cache, from which a run's rows are rebuilt.
 */
import type { SampleDetail } from './score-stage';

/** Above this many samples per model, the rows and the report keep no raw replies. */
export const RAW_REPLIES_LIMIT = 100_000;
/** Above this many samples per model, the report keeps each question's classes but not its samples. */
export const SAMPLE_DETAIL_LIMIT = 500_000;

/** The detail of a report over `samples` samples of one model, and the note that says what was left out (null when nothing was). */
export function reportDetail(samples: number): { detail: SampleDetail; note: string | null } {
  if (samples > SAMPLE_DETAIL_LIMIT) {
    return {
      detail: 'none',
      note: `the report of a run over ${SAMPLE_DETAIL_LIMIT.toLocaleString('en')} samples per model keeps each question's classes (labels and sizes), not its individual samples or raw replies; they stay in this browser's sample cache`,
    };
  }
  if (samples > RAW_REPLIES_LIMIT) {
    return { detail: 'answers', note: `raw replies are not kept in the report of a run over ${RAW_REPLIES_LIMIT.toLocaleString('en')} samples per model; answers and confidences are` };
  }
  return { detail: 'raw', note: null };
}
