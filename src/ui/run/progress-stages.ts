/**
 * Which stages the progress panel draws, and in whose words: an open-answer run samples, groups
 * by meaning and grades; a multiple-choice run (RunProgress.mc) only asks its questions, so the
 * clustering and grading rows, which it never enters, are left out.
 */
import { STAGES, type RunProgress, type StageName } from '../../model/run-spec';

export interface StageRow {
  stage: StageName;
  label: string;
  /** What the stage's count counts ("samples", "questions"), so its numbers say what they are. */
  unit: string;
}

const OPEN_ANSWER_UNITS: Record<StageName, string> = {
  dataset: 'questions',
  sample: 'samples',
  cluster: 'answer sets',
  grade: 'answer sets',
  score: 'models',
  report: 'report',
};

const MULTIPLE_CHOICE_UNITS: Partial<Record<StageName, string>> = {
  dataset: 'questions',
  sample: 'questions asked',
  score: 'models',
  report: 'report',
};

const OPEN_ANSWER_LABELS: Record<StageName, string> = {
  dataset: 'Dataset',
  sample: 'Sampling answers',
  cluster: 'Grouping by meaning',
  grade: 'Grading',
  score: 'Scoring',
  report: 'Saving the report',
};

const MULTIPLE_CHOICE_LABELS: Partial<Record<StageName, string>> = {
  dataset: 'Dataset',
  sample: 'Asking the questions',
  score: 'Scoring',
  report: 'Saving the report',
};

export function isMultipleChoice(progress: Pick<RunProgress, 'mc'>): boolean {
  return progress.mc !== undefined;
}

export function progressStages(progress: Pick<RunProgress, 'mc'>): StageRow[] {
  const mc = isMultipleChoice(progress);
  const labels = mc ? MULTIPLE_CHOICE_LABELS : OPEN_ANSWER_LABELS;
  const units = mc ? MULTIPLE_CHOICE_UNITS : OPEN_ANSWER_UNITS;
  return STAGES.flatMap((stage) => (labels[stage] ? [{ stage, label: labels[stage], unit: units[stage] ?? '' }] : []));
}

/** What the progress counter counts: samples stored in an open-answer run, questions asked in a multiple-choice run. */
export function requestCounterLabel(progress: Pick<RunProgress, 'mc'>): string {
  return isMultipleChoice(progress) ? 'Questions asked' : 'Samples stored';
}

/**
 * Requests sent, each counted once by how it ended: answered, failed for good, or handled
 * (failed, then retried or sent again another way). Records from before `handled` was counted
 * have none.
 */
export function requestCounts(progress: Pick<RunProgress, 'requests'>): { sent: number; answered: number; failed: number; handled: number } {
  const { done, failed, handled = 0 } = progress.requests;
  return { sent: done + failed + handled, answered: done, failed, handled };
}
