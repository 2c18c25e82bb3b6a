/**
 * The score stage: joined rows (clustered + graded) → per-question estimates → every metric
 * → a ModelReport of the report document. Pure (no Node or DOM APIs) so it runs in a worker,
 * on the main thread and in the CLI alike.
 *
 * Signals scored: sem1, sem2 and verbalized (the paper's three), each with the full
 * SignalMetrics; the paired bootstrap of Sem1 vs Sem2 and, over the same replicates, an ECE
 * interval per signal; the paper ECE per margin regime, with K̄ the mean number of non-empty
 * classes over the scored questions.
 */
import { accuracy, eceEqualWidth, signalMetrics } from '../core/calibration';
import { pairedBootstrap } from '../core/bootstrap';
import { estimateQuestion } from '../core/estimators';
import { meanClassCount, regimeOf } from '../core/regimes';
import type { QuestionEstimates, Regime } from '../core/types';
import type { AuthorsRows, JoinedQuestion } from '../formats/authors-rows';
import type {
  ModelMetrics,
  ModelReport,
  ReportQuestion,
  ReportSample,
  SignalName,
} from '../model/report';
import type { Grade } from '../model/rows';

export interface ScoreOptions {
  /** Sem2 splits per question (default 10). */
  R?: number;
  /** Seed of Sem2's per-question default_rng (default 0). */
  sem2Seed?: number;
  /** Bins of the paper ECE (default 10). */
  bins?: number;
  /** Bootstrap replicates (default 1000). */
  B?: number;
  /** Seed of the bootstrap stream (default 7). */
  bootstrapSeed?: number;
  /** Per-sample detail kept in the report: none, answers (default), or answers with raw replies. */
  samples?: 'none' | 'answers' | 'raw';
  /** Compute smooth ECE (a few ms per signal; default true). */
  smooth?: boolean;
}

export const SCORE_DEFAULTS = { R: 10, sem2Seed: 0, bins: 10, B: 1000, bootstrapSeed: 7 } as const;

export const PAPER_SIGNALS: SignalName[] = ['sem1', 'sem2', 'verbalized'];
const REGIMES: Regime[] = ['jensen', 'low-margin', 'large-margin'];

/** Per-question estimates of every joined row (Sem2 with the given R and seed). */
export function estimateQuestions(questions: readonly JoinedQuestion[], options: ScoreOptions = {}): QuestionEstimates[] {
  const sem2 = { R: options.R ?? SCORE_DEFAULTS.R, seed: options.sem2Seed ?? SCORE_DEFAULTS.sem2Seed };
  return questions.map(({ clustered: c }) =>
    estimateQuestion(
      { assignments: c.cluster_assignments, nClasses: c.n_clusters, verbalized: c.confidence_verbalized },
      { sem2 },
    ),
  );
}

/** The grade a report shows: Y decides correctness; an unknown label on a wrong answer reads INCORRECT. */
function gradeOf(label: string | null, Y: 0 | 1): Grade {
  if (Y === 1) return 'CORRECT';
  return label === 'NOT_ATTEMPTED' ? 'NOT_ATTEMPTED' : 'INCORRECT';
}

/** Report rows from joined rows and their estimates; regimes use K̄ over these rows. */
export function reportQuestions(
  questions: readonly JoinedQuestion[],
  estimates: readonly QuestionEstimates[],
  options: ScoreOptions = {},
): ReportQuestion[] {
  const kBar = meanClassCount(estimates);
  const detail = options.samples ?? 'answers';
  return questions.map(({ clustered: c, graded: g }, i) => {
    const e = estimates[i];
    const q: ReportQuestion = {
      id: c.id,
      question: c.question,
      gold: c.gold_answer,
      n: e.n,
      sem1: e.sem1,
      sem2: e.sem2,
      verbalized: e.verbalized,
      correct: g.Y,
      grade: gradeOf(g.grade, g.Y),
      margin: e.margin,
      stdMargin: e.stdMargin,
      // n > 0 and K̄ ≥ 1 for every row the reader accepts, so a regime always exists.
      regime: regimeOf(e.stdMargin, e.margin, e.n, kBar) as Regime,
      entropy: e.entropy,
      nClasses: e.nonEmptyClasses,
      modalLabel: c.modal_cluster_label,
      classes: c.cluster_labels.map((label, k) => ({ label, size: e.sizes[k] })),
    };
    if (detail !== 'none') {
      q.samples = c.cluster_assignments.map((cls, j): ReportSample => {
        const s: ReportSample = { answer: c.answer_extracted[j] ?? '', confidence: c.confidence_verbalized[j], cls };
        if (detail === 'raw') s.raw = c.results[j] ?? '';
        return s;
      });
    }
    return q;
  });
}

function confidenceOf(q: ReportQuestion, signal: SignalName): number {
  if (signal === 'sem1' || signal === 'sem2' || signal === 'verbalized') return q[signal];
  return q.signals?.[signal] ?? NaN;
}

/** Every metric of ModelMetrics from report rows (also what a grade override recomputes). */
export function modelMetrics(
  questions: readonly ReportQuestion[],
  context: { excluded: number; signals?: SignalName[] },
  options: ScoreOptions = {},
): ModelMetrics {
  const bins = options.bins ?? SCORE_DEFAULTS.bins;
  const signals = context.signals ?? PAPER_SIGNALS;
  const y = Float64Array.from(questions, (q) => q.correct);
  const conf = {} as Record<SignalName, Float64Array>;
  for (const s of signals) conf[s] = Float64Array.from(questions, (q) => confidenceOf(q, s));

  const metricsBySignal: ModelMetrics['signals'] = {};
  for (const s of signals) metricsBySignal[s] = signalMetrics(conf[s], y, { bins, smooth: options.smooth });

  // The same arrays as in `conf`, so the bootstrap reuses its Sem1/Sem2 ECEs for their intervals.
  const sem1 = conf.sem1 ?? Float64Array.from(questions, (q) => q.sem1);
  const sem2 = conf.sem2 ?? Float64Array.from(questions, (q) => q.sem2);
  const { bootstrap, eceIntervals } = pairedBootstrap(
    {
      sem1,
      sem2,
      y,
      margin: Float64Array.from(questions, (q) => q.margin),
    },
    { B: options.B ?? SCORE_DEFAULTS.B, seed: options.bootstrapSeed ?? SCORE_DEFAULTS.bootstrapSeed, bins },
    conf,
  );

  const byRegime = {} as ModelMetrics['byRegime'];
  for (const regime of REGIMES) {
    const rows: number[] = [];
    questions.forEach((q, i) => q.regime === regime && rows.push(i));
    const yy = rows.map((i) => y[i]);
    const ece: Partial<Record<SignalName, number>> = {};
    for (const s of signals) ece[s] = eceEqualWidth(rows.map((i) => conf[s][i]), yy, bins);
    byRegime[regime] = { count: rows.length, ece };
  }

  return {
    questions: questions.length,
    excluded: context.excluded,
    accuracy: accuracy(y),
    signals: metricsBySignal,
    bootstrap,
    eceIntervals,
    byRegime,
    meanClasses: meanClassCount(questions.map((q) => ({ n: q.n, nonEmptyClasses: q.nClasses }))),
  };
}

/** The whole stage: joined authors' rows → one model's report. */
export function scoreAuthorsRows(rows: AuthorsRows, options: ScoreOptions = {}, model?: string): ModelReport {
  const estimates = estimateQuestions(rows.questions, options);
  const questions = reportQuestions(rows.questions, estimates, options);
  return {
    model: model ?? rows.questions[0]?.clustered.model ?? 'unknown model',
    metrics: modelMetrics(questions, { excluded: rows.excluded.length }, options),
    questions,
    excludedQuestions: rows.excluded.map((x) => ({ ...x })),
  };
}
