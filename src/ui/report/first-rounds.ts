/**
 * A report's first rounds, for planning the next run from this one (core/budget-plan.ts's
 * `firstRounds` source): each question's first answers as the rule's keys
 * (pipeline/adaptive-slots.ts answerKey), the selection block of an adaptive question or the
 * first `firstRound` answers of a fixed-n one. Only questions whose answers the report keeps.
 */
import type { ReportQuestion } from '../../model/report';
import { answerKey } from '../../pipeline/adaptive-slots';

/** The first-round answer keys of every question that keeps its answers (`firstRound` for a question without a selection block). */
export function firstRoundsOf(questions: readonly Pick<ReportQuestion, 'samples' | 'selectionSamples'>[], firstRound: number): string[][] {
  const out: string[][] = [];
  for (const q of questions) {
    if (!q.samples?.length) continue;
    const take = Math.min(q.samples.length, q.selectionSamples ?? firstRound);
    out.push(q.samples.slice(0, take).map((s) => answerKey(s.answer)));
  }
  return out;
}
