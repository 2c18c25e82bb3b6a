/**
 * A drawn subset in words, for the report's header, the wizard and the CLI. Apart from subset.ts so
 * that the report page does not load the seeded generator the draw needs (the first page's budget).
 */
import type { QuestionSubset } from '../../model/rows.ts';

/** One line for a report or a run page: "200 of 4,326 questions, drawn with seed 7, by category". */
export function describeSubset(subset: QuestionSubset): string {
  const count = (x: number) => x.toLocaleString('en-US');
  return `${count(subset.ids.length)} of ${count(subset.of)} questions, drawn with seed ${subset.seed}${subset.stratifiedBy ? ', in proportion to each category' : ''}`;
}
