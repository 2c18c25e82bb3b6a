/**
 * One adaptively sampled question's rounds, for the drill-down: which slots each round drew,
 * whether it belonged to the selection block or the held-out block, and, where the report keeps
 * the answers, what each round's answers were and how the rule read them. The report does not
 * store the rounds: they are replayed from the answers and the recorded rule
 * (pipeline/adaptive-slots.ts), or, without answers, laid out from the rule and the question's
 * selection block and n, which fix them as well.
 */
import type { AdaptiveRound } from '../../core/adaptive-rule';
import { adaptiveRoundsOf, answerKey } from '../../pipeline/adaptive-slots';
import type { ReportQuestion, ReportSettings } from '../../model/report';
import type { AdaptiveSettings } from '../../model/run-spec';

export interface RoundView {
  phase: 'selection' | 'held-out';
  /** 1-based sample numbers, as the drill-down's sample table numbers them. */
  first: number;
  last: number;
  size: number;
  /** The round's answers by how often they came, most first (absent without answers). */
  answers?: { answer: string; count: number }[];
  /** After a selection round: the top answer's share of the selection so far (absent without answers). */
  agreement?: number;
}

export interface QuestionRounds {
  /** 'replayed': from the answers kept in the report; 'laid-out': from the rule, the selection block and n. */
  source: 'replayed' | 'laid-out';
  rounds: RoundView[];
  selection: number;
  heldOut: number;
}

/** The selection rounds of a block of `selection` samples under the rule, then one held-out round up to n. */
export function layOutRounds(selection: number, n: number, rule: Pick<AdaptiveSettings, 'firstRound' | 'roundSize'>): AdaptiveRound[] {
  const rounds: AdaptiveRound[] = [];
  let at = 0;
  let size = Math.min(rule.firstRound, selection);
  while (at < selection && size > 0) {
    rounds.push({ phase: 'selection', start: at, size });
    at += size;
    size = Math.min(rule.roundSize, selection - at);
  }
  if (n > selection) rounds.push({ phase: 'held-out', start: selection, size: n - selection });
  return rounds;
}

/** Answers by count, most first (first seen first on ties). */
function tally(answers: readonly string[]): { answer: string; count: number }[] {
  const counts = new Map<string, { answer: string; count: number }>();
  for (const a of answers) {
    const key = answerKey(a);
    const hit = counts.get(key);
    if (hit) hit.count++;
    else counts.set(key, { answer: a, count: 1 });
  }
  return [...counts.values()].sort((x, y) => y.count - x.count);
}

/**
 * The question's rounds, or undefined for a question that was not sampled adaptively (no
 * selection block, or a report without a rule).
 */
export function questionRounds(q: Pick<ReportQuestion, 'n' | 'selectionSamples' | 'samples'>, settings: Pick<ReportSettings, 'samples' | 'adaptive'>): QuestionRounds | undefined {
  const selection = q.selectionSamples;
  if (selection === undefined || !settings.adaptive) return undefined;
  const answers = q.samples && q.samples.length === q.n ? q.samples.map((s) => s.answer) : undefined;
  const replayed = answers ? adaptiveRoundsOf(answers, settings) : undefined;
  // The replay is trusted only where it reaches the recorded block and count.
  const agrees = replayed && replayed.some((r) => r.phase === 'held-out' && r.start === selection && r.start + r.size === q.n);
  const rounds = agrees ? replayed : layOutRounds(selection, q.n, settings.adaptive);
  const views = rounds.map((r): RoundView => {
    const view: RoundView = { phase: r.phase, first: r.start + 1, last: r.start + r.size, size: r.size };
    if (!answers) return view;
    view.answers = tally(answers.slice(r.start, r.start + r.size));
    if (r.phase === 'selection') {
      const top = tally(answers.slice(0, r.start + r.size))[0];
      view.agreement = top ? top.count / (r.start + r.size) : 0;
    }
    return view;
  });
  return { source: agrees ? 'replayed' : 'laid-out', rounds: views, selection, heldOut: q.n - selection };
}
