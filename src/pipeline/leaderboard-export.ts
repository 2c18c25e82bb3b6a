/**
 * The leaderboard as a table for people (rounded as the report rounds, formats/numbers.ts) and
 * as CSV (the project's one CSV writer), Markdown and LaTeX (the headline table's writers).
 * CSV keeps full precision: it is read by programs.
 */
import { toCsv } from '../formats/csv';
import { fmtEceInterval, headlineLatex, headlineMarkdown, type HeadlineTable } from '../formats/headline-table';
import { fmt, pct } from '../formats/numbers';
import { SIGNAL_SHORT } from '../model/signals';
import type { Leaderboard } from './leaderboard';

const rankInterval = (r: [number, number]) => (r[0] === r[1] ? String(r[0]) : `${r[0]}–${r[1]}`);

export function leaderboardTable(lb: Leaderboard): HeadlineTable {
  const sig = SIGNAL_SHORT[lb.signal];
  return {
    header: ['Rank', 'Model', 'Questions', `ECE ${sig}`, `ECE ${sig} 95% CI`, 'Accuracy', `Brier ${sig}`, `AUROC ${sig}`, 'P(first)', 'Rank 95% interval'],
    rows: lb.entries.map((e) => [
      String(e.rank), e.name, String(e.questions), fmt(e.ece), fmtEceInterval(e.ece_interval), pct(e.accuracy), fmt(e.brier), fmt(e.auroc), fmt(e.p_first, 2), rankInterval(e.rank_interval),
    ]),
  };
}

export const LEADERBOARD_CSV_FIELDS = ['rank', 'name', 'questions', 'ece', 'ece_low', 'ece_high', 'accuracy', 'brier', 'auroc', 'p_first', 'rank_low', 'rank_high'] as const;

export function leaderboardCsv(lb: Leaderboard): string {
  return toCsv(LEADERBOARD_CSV_FIELDS, lb.entries.map((e) => [
    e.rank, e.name, e.questions, e.ece, e.ece_interval?.[0] ?? null, e.ece_interval?.[1] ?? null, e.accuracy, e.brier, e.auroc, e.p_first, e.rank_interval[0], e.rank_interval[1],
  ]));
}

export function leaderboardMarkdown(lb: Leaderboard): string {
  return headlineMarkdown(leaderboardTable(lb), 2);
}

export function leaderboardCaption(lb: Leaderboard): string {
  const how = lb.paired ? 'paired over the shared questions' : "each on its own questions";
  return `Models ranked by the ${SIGNAL_SHORT[lb.signal]} ECE (the paper's, with a 95\\% interval for the population ECE); P(first) is the share of ${lb.B} bootstrap replicates (${how}) in which a model has the lowest ECE, with the central 95\\% of its rank.`;
}

export function leaderboardLatex(lb: Leaderboard): string {
  return headlineLatex(leaderboardTable(lb), leaderboardCaption(lb), 2);
}
