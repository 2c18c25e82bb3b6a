/**
 * Every metric of a model's report from its report rows (ModelMetrics): each scored signal's
 * calibration metrics, one paired bootstrap (Sem1 vs Sem2, an ECE interval per signal, the signal
 * comparison's replicates), the paper ECE per margin regime, the one interval each ECE is shown
 * with and its test (ece-inference-metrics.ts), PRR, AUARC and the recalibrated ECEs
 * (recalibration-metrics.ts). The paired bootstrap can run elsewhere (modelMetricsBeside: the
 * CLI's worker thread) while the rest is computed; the numbers are the same bits either way.
 */
import { accuracy, eceEqualWidth, signalMetrics } from '../core/calibration';
import { biasCorrectedInterval, pairedBootstrap, type BootstrapOptions, type BootstrapResult } from '../core/bootstrap';
import { biasCorrectedEceIntervals } from '../core/bias-corrected-ece';
import { meanClassCount } from '../core/regimes';
import type { Regime } from '../core/types';
import type { ModelMetrics, ReportQuestion } from '../model/report';
import { PAPER_SIGNALS, signalValue, type SignalName } from '../model/signals';
import { recalibrationWithColumns, rejectionMetrics } from './recalibration-metrics';
import { comparedColumns, compareRecalibratedSignals, compareScoredSignals } from './signal-comparison';
import { abstentionMetrics } from './abstention-metrics';
import { eceInferenceMetrics, regimeColumns, withEceInference } from './ece-inference-metrics';
import { scoringUsed, type ScoreOptions } from './score-options';

const REGIMES: Regime[] = ['jensen', 'low-margin', 'large-margin'];

/** One value per question as a Float64Array (a loop: Float64Array.from with a map function iterates, several times slower). */
function columnOf<T>(items: readonly T[], value: (item: T) => number): Float64Array {
  const out = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) out[i] = value(items[i]);
  return out;
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
