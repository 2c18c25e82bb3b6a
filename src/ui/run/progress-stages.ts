/**
 * Which stages the progress panel draws, and in whose words: an open-answer run samples, groups
 * by meaning and grades; a multiple-choice run (RunProgress.mc) only asks its questions, so the
 * clustering and grading rows, which it never enters, are left out.
 */
import { STAGES, type RunProgress, type StageName } from '../../model/run-spec';

export interface StageRow {
  stage: StageName;
  label: string;
}

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
  const labels = isMultipleChoice(progress) ? MULTIPLE_CHOICE_LABELS : OPEN_ANSWER_LABELS;
  return STAGES.flatMap((stage) => (labels[stage] ? [{ stage, label: labels[stage] }] : []));
}

/** What the request counter counts: one sample per request in an open-answer run, one question asked per request in a multiple-choice run. */
export function requestCounterLabel(progress: Pick<RunProgress, 'mc'>): string {
  return isMultipleChoice(progress) ? 'Questions asked' : 'Samples';
}
