/**
 * The score stage: joined rows (clustered + graded) → per-question estimates → every metric
 * → a ModelReport of the report document. Pure (no Node or DOM APIs) so it runs in a worker,
 * on the main thread and in the CLI alike.
 *
 * Every signal is scored in one pass: the paper's three (Sem1, Sem2, verbalized) always, and each
 * other signal (entropy confidence exp(−H) and the black-box signals of every question, from its
 * classes and answers, black-box-signals.ts; stated probability and logprob handed in by a
 * multiple-choice run) when every scored question has it. A signal present on only
 * some questions stays visible per question but is not scored: a calibration over a different
 * subset of questions would not be comparable with the others (the signal comparison says so).
 * Every metric is model-metrics.ts's: each scored signal gets the full SignalMetrics; one paired bootstrap gives Sem1 vs Sem2, an ECE
 * interval per signal over the same replicates, and, from those replicates, the signal comparison;
 * then the paper ECE per margin regime (with its bias-corrected interval from resampling the
 * regime's questions), with K̄ the mean number of non-empty classes; and the one interval each
 * ECE is shown with, its calibration test and consistency bands (ece-inference-metrics.ts); and
 * every scored signal's PRR, AUARC and ECE after cross-fitted recalibration
 * (recalibration-metrics.ts). The signal comparison compares the signals that are probabilities;
 * a confidence form of an uncertainty score is listed as left out (signal-comparison.ts), and
 * is compared with the rest after recalibration: the same rule over every scored signal's
 * cross-fitted isotonic confidences (recalibratedComparison, with the view extras only).
 */
import { estimateQuestion } from '../core/estimators';
import { adaptiveSem2 } from '../core/adaptive-sem2';
import { meanClassCount, regimeOf } from '../core/regimes';
import type { QuestionEstimates, Regime } from '../core/types';
import type { AuthorsRows, JoinedQuestion } from '../formats/authors-rows';
import type { GraphSimilarity, ModelMetrics, ModelReport, ReportQuestion, ReportSample } from '../model/report';
import type { Grade } from '../model/rows';
import { entropyConfidence, isPaperSignal, SIGNAL_NAMES, signalInfo, type SignalName } from '../model/signals';
import { blackBoxSignalsWanted, blackBoxSignalValues, groupSimilarityOf } from './black-box-signals';
import { weightedSemanticEntropy } from '../core/weighted-semantic-entropy';
import { MAX_QUESTION_FIELDS } from '../model/question-fields';

export { PAPER_SIGNALS } from '../model/signals';
// The options and the metrics live in their own modules; importers of the stage find them here too.
export { scoringUsed, scoreOptionsFor, type SampleDetail, type ScoreOptions } from './score-options';
export { modelMetrics, modelMetricsBeside, runBootstrapJob, type BootstrapRunner, type MetricsBootstrapJob } from './model-metrics';
import { scoringUsed, type ScoreOptions } from './score-options';
import { modelMetrics, modelMetricsBeside, type BootstrapRunner } from './model-metrics';


/**
 * Per-question estimates of every joined row (Sem2 with the given R, seed and selection). A row
 * sampled adaptively (`selection_samples`) has the one split its sampling made: its Sem2 is the
 * held-out share of its selection block's modal class (core/adaptive-sem2.ts), the estimate that
 * stays unbiased under the stopping rule; the reference splits would not.
 */
export function estimateQuestions(questions: readonly JoinedQuestion[], options: ScoreOptions = {}): QuestionEstimates[] {
  const { sem2: s } = scoringUsed(options);
  const fixed = s.selection;
  const sem2 = { R: s.R, seed: s.seed, selectionSize: fixed === 'half' ? undefined : () => fixed };
  return questions.map(({ clustered: c }) => {
    const e = estimateQuestion({ assignments: c.cluster_assignments, nClasses: c.n_clusters, verbalized: c.confidence_verbalized }, { sem2 });
    if (c.selection_samples !== undefined) e.sem2 = adaptiveSem2(c.cluster_assignments, c.selection_samples);
    return e;
  });
}

/** The grade a report shows: Y decides correctness; an unknown label on a wrong answer reads INCORRECT. */
export function gradeOf(label: string | null, Y: 0 | 1): Grade {
  if (Y === 1) return 'CORRECT';
  return label === 'NOT_ATTEMPTED' ? 'NOT_ATTEMPTED' : 'INCORRECT';
}

/** The signals the stage computes from the rows themselves (not handed in), among `wanted` (default: all). */
export function computedSignals(wanted?: readonly SignalName[]): SignalName[] {
  const own = (name: SignalName): SignalName[] => (!wanted || wanted.includes(name) ? [name] : []);
  return [...own('entropyConfidence'), ...blackBoxSignalsWanted(wanted), ...ROW_SIGNALS.flatMap(own)];
}

/**
 * Signals from what the rows carry where the run asked for it: p(True) (rows' p_true, a
 * probability) and the likelihood-weighted semantic entropy (the partition weighted by rows'
 * sequence_logprobs, core/weighted-semantic-entropy.ts, stored as exp(−H)).
 */
const ROW_SIGNALS: readonly SignalName[] = ['p_true', 'semantic_entropy_weighted'];

/** The row signals of one clustered row, among `wanted`; a signal the row cannot give is left out. */
function rowSignalValues(c: JoinedQuestion['clustered'], wanted: readonly SignalName[]): Partial<Record<SignalName, number>> | undefined {
  let out: Partial<Record<SignalName, number>> | undefined;
  if (wanted.includes('p_true') && typeof c.p_true === 'number' && Number.isFinite(c.p_true)) (out ??= {}).p_true = c.p_true;
  const lp = c.sequence_logprobs;
  if (wanted.includes('semantic_entropy_weighted') && lp && lp.length === c.cluster_assignments.length) {
    const v = entropyConfidence(weightedSemanticEntropy(c.cluster_assignments, lp));
    if (Number.isFinite(v)) (out ??= {}).semantic_entropy_weighted = v;
  }
  return out;
}

/**
 * Report rows from joined rows and their estimates; regimes use K̄ over these rows. The
 * `computed` signals (entropy confidence, the black-box signals: computedSignals) are added to
 * each row's signals, beside the extra signals given.
 */
export function reportQuestions(
  questions: readonly JoinedQuestion[],
  estimates: readonly QuestionEstimates[],
  options: ScoreOptions & { computed?: readonly SignalName[] } = {},
): ReportQuestion[] {
  const computed = options.computed ?? [];
  const withEntropy = computed.includes('entropyConfidence');
  const blackBox = blackBoxSignalsWanted(computed);
  const fromRows = ROW_SIGNALS.filter((s) => computed.includes(s));
  // The graph signals over the clustering's answer similarity only where every row holds one.
  const overSimilarity = blackBox.some((s) => signalInfo(s).preferredInput === 'similarity') && graphSimilarityOf(questions) !== 'partition';
  const kBar = meanClassCount(estimates);
  const detail = options.samples ?? 'answers';
  const extra = options.extraSignals;
  return questions.map(({ clustered: c, graded: g, fields }, i) => {
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
    if (fields) q.fields = { ...fields };
    // How p(True) was read, stated per question (a field, so the report lists and slices by it),
    // within the fields a report question may keep.
    if (fromRows.length > 0 && c.p_true_method && q.fields?.p_true_method === undefined && Object.keys(q.fields ?? {}).length < MAX_QUESTION_FIELDS) {
      q.fields = { ...q.fields, p_true_method: c.p_true_method };
    }
    if (c.selection_samples !== undefined) q.selectionSamples = c.selection_samples;
    const given = extra?.[c.id];
    // The answers only where the rows carry one per sample (the CLI reads rows without them when no signal needs them).
    const answers = c.answer_extracted.length === e.n ? c.answer_extracted : undefined;
    const groupSimilarity = overSimilarity ? groupSimilarityOf(c.answer_similarity!) : undefined;
    const black = blackBox.length > 0 ? blackBoxSignalValues({ estimates: e, answers, groupSimilarity }, blackBox) : undefined;
    const carried = fromRows.length > 0 ? rowSignalValues(c, fromRows) : undefined;
    if (withEntropy || black || carried || given) q.signals = { ...(withEntropy ? { entropyConfidence: entropyConfidence(e.entropy) } : {}), ...black, ...carried, ...given };
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

/** Signals defined (finite) on every question, the paper's three always: the ones scored side by side. */
export function scoredSignals(questions: readonly ReportQuestion[]): SignalName[] {
  return SIGNAL_NAMES.filter(
    (name) => isPaperSignal(name) || (questions.length > 0 && questions.every((q) => Number.isFinite(q.signals?.[name]))),
  );
}

/** The whole stage: joined authors' rows → one model's report, every signal scored once. */
export function scoreAuthorsRows(rows: AuthorsRows, options: ScoreOptions = {}, model?: string): ModelReport {
  const { questions, context } = scoredQuestions(rows, options);
  return modelReport(rows, questions, modelMetrics(questions, context, options), model);
}

/** The same report, its paired bootstrap run by `runBootstrap` beside the other metrics (the CLI's worker thread). */
export async function scoreAuthorsRowsBeside(runBootstrap: BootstrapRunner, rows: AuthorsRows, options: ScoreOptions = {}, model?: string): Promise<ModelReport> {
  const { questions, context } = scoredQuestions(rows, options);
  return modelReport(rows, questions, await modelMetricsBeside(runBootstrap, questions, context, options), model);
}

/** Each question's report row and the signals scored over them. */
function scoredQuestions(rows: AuthorsRows, options: ScoreOptions) {
  const estimates = estimateQuestions(rows.questions, options);
  const computed = rows.questions.length > 0 ? computedSignals(options.signals) : [];
  const questions = reportQuestions(rows.questions, estimates, { ...options, computed });
  const scored = scoredSignals(questions);
  const signals = options.signals ? scored.filter((s) => isPaperSignal(s) || options.signals!.includes(s)) : scored;
  return { questions, context: { excluded: rows.excluded.length, signals } };
}

function modelReport(rows: AuthorsRows, questions: ReportQuestion[], metrics: ModelMetrics, model?: string): ModelReport {
  // Stated where a graph signal was scored: what its similarity was.
  const graphScored = SIGNAL_NAMES.some((s) => signalInfo(s).preferredInput === 'similarity' && metrics.signals[s]);
  return {
    model: model ?? rows.questions[0]?.clustered.model ?? 'unknown model',
    metrics,
    questions,
    excludedQuestions: rows.excluded.map((x) => ({ ...x })),
    ...(graphScored ? { graphSimilarity: graphSimilarityOf(rows.questions) } : {}),
  };
}

/**
 * The similarity the graph signals use for these rows: the rows' answer similarity (embedding
 * cosines or entailment probabilities) where every row holds one (one per sample) from one source,
 * else the partition: a mix of sources would put two scales in one comparison.
 */
export function graphSimilarityOf(questions: readonly JoinedQuestion[]): GraphSimilarity {
  const source = questions[0]?.clustered.answer_similarity?.source;
  const all = source !== undefined && questions.every(({ clustered: c }) => c.answer_similarity?.source === source && c.answer_similarity.groups.length === c.cluster_assignments.length);
  return all ? source : 'partition';
}
