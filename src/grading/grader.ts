/**
 * One interface for graders: the modal class's label against the gold answer (and its aliases),
 * giving CORRECT / INCORRECT / NOT_ATTEMPTED. Y = 1 only for CORRECT; a grader failure gives
 * grade null and Y null, and the scorer excludes and counts such rows.
 */
import type { Grade, Result } from '../model/rows';
import type { Usage } from '../model/provider';

export interface GradeItem {
  id?: string;
  question: string;
  gold: string;
  aliases?: string[];
  /** The deployed answer: the modal class's label. */
  predicted: string;
  /** Multiple-choice options in order (A, B, C …), when the question has them. */
  options?: string[];
}

export type GradeOutcome = Result<Grade> & {
  usage?: Usage;
  calls?: number;
  /** Which rule decided (alias grader), for the report's "why". */
  rule?: string;
};

export type GradeMethod = 'judge' | 'alias';

export interface Grader {
  readonly method: GradeMethod;
  grade(item: GradeItem, signal?: AbortSignal): Promise<GradeOutcome>;
}

export const GRADES: readonly Grade[] = ['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'];
