/**
 * A grade as people read it in the app's tables and drill-down: "not attempted", never the raw
 * NOT_ATTEMPTED. Exports (CSV, JSONL, the report schema) keep the raw values, which scripts read.
 */
import type { Grade } from './rows';

export const GRADE_WORDS: Readonly<Record<Grade, string>> = Object.freeze({ CORRECT: 'correct', INCORRECT: 'incorrect', NOT_ATTEMPTED: 'not attempted' });

export function gradeWords(grade: Grade): string {
  return GRADE_WORDS[grade] ?? String(grade);
}
