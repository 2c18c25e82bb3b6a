/**
 * The wizard's scoring settings (the "Advanced: scoring" fold-out): their labels, and what is
 * wrong with them in words. Checked by the same schema a stored run's spec is read back through
 * (formats/run-spec-schema.ts), so the bounds are those of model/scoring-limits.ts and a value the
 * wizard lets through is one a report may record.
 */
import { scoringSpecSchema } from '../../formats/run-spec-schema';
import { SCORING_DEFAULTS, type ScoringSpec } from '../../model/run-spec';

/** Each setting in the words of the fold-out, by its path in a ScoringSpec. */
export const SCORING_LABELS: Record<string, string> = {
  'sem2.R': 'Sem2 splits (R)',
  'sem2.seed': 'Sem2 seed',
  'sem2.selection': 'Sem2 selection block',
  bins: 'Bins of the ECE',
  'bootstrap.B': 'Bootstrap replicates (B)',
  'bootstrap.seed': 'Bootstrap seed',
};

/** A fresh, editable copy of the paper's settings (SCORING_DEFAULTS is frozen). */
export function defaultScoring(): ScoringSpec {
  return { sem2: { ...SCORING_DEFAULTS.sem2 }, bins: SCORING_DEFAULTS.bins, bootstrap: { ...SCORING_DEFAULTS.bootstrap } };
}

/** Whether the settings differ from the paper's (the fold-out then opens by itself). */
export function isDefaultScoring(s: ScoringSpec): boolean {
  const d = SCORING_DEFAULTS;
  return s.sem2.R === d.sem2.R && s.sem2.seed === d.sem2.seed && s.sem2.selection === d.sem2.selection && s.bins === d.bins && s.bootstrap.B === d.bootstrap.B && s.bootstrap.seed === d.bootstrap.seed;
}

/** What is wrong with each setting, by its path ("bins": "expected a whole number from 1 to 1,000, got 5000"). */
export function scoringIssues(s: ScoringSpec): { path: string; message: string }[] {
  // An emptied number field reads as null: say "missing" rather than "got null".
  const checked = scoringSpecSchema.safeParse(JSON.parse(JSON.stringify(s), (_k, v: unknown) => (v === null ? undefined : v)));
  return checked.success ? [] : checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/** What stops these settings from being used, one line per setting ("Bins of the ECE: expected a whole number from 1 to 1,000, got 5000."). */
export function scoringProblems(s: ScoringSpec): string[] {
  return scoringIssues(s).map(({ path, message }) => `${SCORING_LABELS[path] ?? path}: ${message}.`);
}
