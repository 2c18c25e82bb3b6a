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
 * Each scored signal gets the full SignalMetrics; one paired bootstrap gives Sem1 vs Sem2, an ECE
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
import { accuracy, eceEqualWidth, signalMetrics } from '../core/calibration';
import { biasCorrectedInterval, pairedBootstrap, type BootstrapOptions, type BootstrapResult } from '../core/bootstrap';
import { biasCorrectedEceIntervals } from '../core/bias-corrected-ece';
import { estimateQuestion } from '../core/estimators';
import { adaptiveSem2 } from '../core/adaptive-sem2';
import { meanClassCount, regimeOf } from '../core/regimes';
import type { QuestionEstimates, Regime } from '../core/types';
import type { AuthorsRows, JoinedQuestion } from '../formats/authors-rows';
import type { GraphSimilarity, ModelMetrics, ModelReport, ReportQuestion, ReportSample } from '../model/report';
import type { Grade } from '../model/rows';
import { SCORING_DEFAULTS, type ScoringSpec } from '../model/run-spec';
import { entropyConfidence, isPaperSignal, PAPER_SIGNALS, SIGNAL_NAMES, signalInfo, signalValue, type SignalName } from '../model/signals';
import { blackBoxSignalsWanted, blackBoxSignalValues, groupSimilarityOf } from './black-box-signals';
import { weightedSemanticEntropy } from '../core/weighted-semantic-entropy';
import { MAX_QUESTION_FIELDS } from '../model/question-fields';
import { recalibrationWithColumns, rejectionMetrics } from './recalibration-metrics';
import { comparedColumns, compareRecalibratedSignals, compareScoredSignals } from './signal-comparison';
import { abstentionMetrics } from './abstention-metrics';
import { eceInferenceMetrics, regimeColumns, withEceInference } from './ece-inference-metrics';

export { PAPER_SIGNALS } from '../model/signals';

/** Per-sample detail of a report: none (classes only), answers and confidences, or those with raw replies. */
export type SampleDetail = 'none' | 'answers' | 'raw';

export interface ScoreOptions {
  /** Sem2 splits per question (default SCORING_DEFAULTS). */
  R?: number;
  /** Seed of Sem2's per-question default_rng. */
  sem2Seed?: number;
  /** Sem2's selection block: floor(n/2) ('half') or a fixed number of samples. */
  sem2Selection?: 'half' | number;
  /** Bins of the paper ECE. */
  bins?: number;
  /** Bootstrap replicates. */
  B?: number;
  /** Seed of the bootstrap stream. */
  bootstrapSeed?: number;
  /** Per-sample detail kept in the report: none, answers (default), or answers with raw replies. */
  samples?: SampleDetail;
  /** Compute smooth ECE (a few ms per signal; default true). */
  smooth?: boolean;
  /**
   * Give each margin regime its bias-corrected ECE interval (default true): B more resamples, as
   * many again as the paired bootstrap costs; a caller that never shows them can skip them.
   */
  regimeIntervals?: boolean;
  /** Signals to score (default: every signal every question has; the paper's three always). */
  signals?: readonly SignalName[];
  /**
   * Compute what only the report's views show (default true): the signal comparison, the
   * abstention thresholds with their spread over 20 splits, and the consistency bands. `semece
   * score` without --report prints none of them, so it skips them (at 40,000 questions, 2.1 s of
   * the scoring's CPU time became 1.3 s).
   */
  viewExtras?: boolean;
  /** Signals other than the paper's three, by question id (a multiple-choice run's stated probability, logprob). */
  extraSignals?: Readonly<Record<string, Partial<Record<SignalName, number>>>>;
  /**
   * Signals the run offers (a multiple-choice run: every one): the signal comparison lists each,
   * as left out when no question has it (a logprob the provider never returned), not silently.
   */
  comparedSignals?: readonly SignalName[];
}

/** The scoring settings these options mean: the ones given, the defaults for the rest. */
export function scoringUsed(options: ScoreOptions = {}): ScoringSpec {
  const d = SCORING_DEFAULTS;
  return {
    sem2: { R: options.R ?? d.sem2.R, seed: options.sem2Seed ?? d.sem2.seed, selection: options.sem2Selection ?? d.sem2.selection },
    bins: options.bins ?? d.bins,
    bootstrap: { B: options.B ?? d.bootstrap.B, seed: options.bootstrapSeed ?? d.bootstrap.seed },
  };
}

/** Score options that score with these settings. */
export function scoreOptionsFor(scoring: ScoringSpec): ScoreOptions {
  return {
    R: scoring.sem2.R,
    sem2Seed: scoring.sem2.seed,
    sem2Selection: scoring.sem2.selection,
    bins: scoring.bins,
    B: scoring.bootstrap.B,
    bootstrapSeed: scoring.bootstrap.seed,
  };
}

const REGIMES: Regime[] = ['jensen', 'low-margin', 'large-margin'];

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
function gradeOf(label: string | null, Y: 0 | 1): Grade {
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

/** One value per question as a Float64Array (a loop: Float64Array.from with a map function iterates, several times slower). */
function columnOf<T>(items: readonly T[], value: (item: T) => number): Float64Array {
  const out = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) out[i] = value(items[i]);
  return out;
}

/** Signals defined (finite) on every question, the paper's three always: the ones scored side by side. */
export function scoredSignals(questions: readonly ReportQuestion[]): SignalName[] {
  return SIGNAL_NAMES.filter(
    (name) => isPaperSignal(name) || (questions.length > 0 && questions.every((q) => Number.isFinite(q.signals?.[name]))),
  );
}

/** What the paired bootstrap of a model's metrics reads: typed arrays and settings, so it can run on another thread (the CLI's). */
export interface MetricsBootstrapJob {
  input: { sem1: Float64Array; sem2: Float64Array; y: Float64Array; margin: Float64Array };
  options: BootstrapOptions;
  /** Each scored signal's column; Sem1's and Sem2's are the very arrays of `input`, so their ECEs are computed once. */
  signals: Record<string, Float64Array>;
}

/** Runs a bootstrap job; the CLI's runs it on a worker thread while the other metrics are computed. */
export type BootstrapRunner = (job: MetricsBootstrapJob) => Promise<BootstrapResult>;

/** The bootstrap job on this thread. */
export const runBootstrapJob = (job: MetricsBootstrapJob): BootstrapResult => pairedBootstrap(job.input, job.options, job.signals);

/** Every metric of ModelMetrics from report rows (also what a grade override recomputes). */
export function modelMetrics(
  questions: readonly ReportQuestion[],
  context: { excluded: number; signals?: readonly SignalName[] },
  options: ScoreOptions = {},
): ModelMetrics {
  const inputs = metricInputs(questions, context, options);
  const boot = runBootstrapJob(inputs.job);
  return withBootstrap(inputs, metricsBesideBootstrap(inputs, questions, options), boot, questions, context, options);
}

/**
 * The same metrics with the paired bootstrap handed to `runBootstrap` and the rest computed
 * meanwhile: the numbers are modelMetrics's, bit for bit (one seeded stream, the same arrays).
 */
export async function modelMetricsBeside(
  runBootstrap: BootstrapRunner,
  questions: readonly ReportQuestion[],
  context: { excluded: number; signals?: readonly SignalName[] },
  options: ScoreOptions = {},
): Promise<ModelMetrics> {
  const inputs = metricInputs(questions, context, options);
  const boot = runBootstrap(inputs.job);
  // Not awaited yet: the metrics that do not read the replicates are computed while it runs.
  const beside = metricsBesideBootstrap(inputs, questions, options);
  return withBootstrap(inputs, beside, await boot, questions, context, options);
}

type MetricInputs = ReturnType<typeof metricInputs>;

/** The columns every metric reads, and the bootstrap's job over them. */
function metricInputs(questions: readonly ReportQuestion[], context: { signals?: readonly SignalName[] }, options: ScoreOptions) {
  const { bins, bootstrap: b } = scoringUsed(options);
  const signals = context.signals ?? PAPER_SIGNALS;
  const y = columnOf(questions, (q) => q.correct);
  const conf = {} as Record<SignalName, Float64Array>;
  for (const s of signals) conf[s] = columnOf(questions, (q) => signalValue(q, s));
  // The same arrays as in `conf`, so the bootstrap reuses its Sem1/Sem2 ECEs for their intervals.
  const sem1 = conf.sem1 ?? columnOf(questions, (q) => q.sem1);
  const sem2 = conf.sem2 ?? columnOf(questions, (q) => q.sem2);
  const job: MetricsBootstrapJob = { input: { sem1, sem2, y, margin: columnOf(questions, (q) => q.margin) }, options: { B: b.B, seed: b.seed, bins }, signals: conf };
  return { bins, b, signals, y, conf, job };
}

/** Everything that does not read the bootstrap's replicates. */
function metricsBesideBootstrap({ bins, b, signals, y, conf }: MetricInputs, questions: readonly ReportQuestion[], options: ScoreOptions) {
  const metricsBySignal: ModelMetrics['signals'] = {};
  for (const s of signals) metricsBySignal[s] = signalMetrics(conf[s], y, { bins, smooth: options.smooth });

  // Each regime's rows gathered once: its ECEs, its bias-corrected intervals and its inference read them.
  const regimes = regimeColumns(conf, y, questions.map((q) => q.regime));
  const byRegime = {} as ModelMetrics['byRegime'];
  for (const regime of REGIMES) {
    const { columns, y: yy } = regimes[regime];
    const ece: Partial<Record<SignalName, number>> = {};
    for (const s of signals) ece[s] = eceEqualWidth(columns[s], yy, bins);
    // Each regime's interval: the headline's bias-corrected bootstrap, resampling the regime's own rows.
    byRegime[regime] = { count: yy.length, ece };
    if (options.regimeIntervals !== false) {
      byRegime[regime].eceBiasCorrected = biasCorrectedEceIntervals(columns, yy, { B: b.B, seed: b.seed, bins });
    }
  }

  // Ranking beyond AUROC, and calibration after a recalibration map, for every scored signal.
  const rejection = rejectionMetrics(conf, y);
  const { metrics: recalibration, isotonic } = recalibrationWithColumns(conf, y, { bins, seed: b.seed });

  // The one interval shown beside each ECE, its calibration test and the diagram's consistency
  // bands (ece-inference-metrics.ts), and per regime: no resampling of rows, so a few hundred ms
  // for every signal and regime of 40,000 questions, cheap enough to be always there.
  const extras = options.viewExtras !== false;
  const inference = eceInferenceMetrics(conf, y, { bins, seed: b.seed, bands: extras }, regimes);
  // Chosen once here, so the selective view reads it rather than recomputing it on the page.
  const abstention = extras ? abstentionMetrics(questions, signals) : undefined;
  // The signal comparison after the isotonic maps just fitted (its own bootstrap, on this thread while the paired one runs).
  const recalibratedComparison = extras ? compareRecalibratedSignals(isotonic, y, { B: b.B, seed: b.seed, bins }) : undefined;
  return { metricsBySignal, byRegime, rejection, recalibration, inference, abstention, recalibratedComparison };
}

/** The metrics put together with the bootstrap's replicates. */
function withBootstrap(
  { bins, b, signals, y }: MetricInputs,
  beside: ReturnType<typeof metricsBesideBootstrap>,
  boot: BootstrapResult,
  questions: readonly ReportQuestion[],
  context: { excluded: number },
  options: ScoreOptions,
): ModelMetrics {
  const { metricsBySignal, byRegime, rejection, recalibration, inference, abstention, recalibratedComparison } = beside;
  return withEceInference({
    questions: questions.length,
    excluded: context.excluded,
    accuracy: accuracy(y),
    signals: metricsBySignal,
    bootstrap: boot.bootstrap,
    eceIntervals: boot.eceIntervals,
    // The app's headline estimate and interval for a statistic noise biases upward (core/bootstrap.ts).
    eceBiasCorrected: Object.fromEntries(signals.filter((s) => boot.eceReplicates[s]).map((s) => [s, biasCorrectedInterval(metricsBySignal[s]!.ece, boot.eceReplicates[s])])),
    byRegime,
    meanClasses: meanClassCount(questions.map((q) => ({ n: q.n, nonEmptyClasses: q.nClasses }))),
    rejection,
    recalibration,
    ...(abstention
      ? {
          comparison: compareScoredSignals(comparedColumns(questions, signals, options.comparedSignals), y, { B: b.B, seed: b.seed, bins }, { intervals: boot.eceIntervals, replicates: boot.eceReplicates }),
          abstention,
        }
      : {}),
    ...(recalibratedComparison ? { recalibratedComparison } : {}),
  }, inference);
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
