/**
 * The zod schema of the report document (model/report.ts), which the importer every way in uses
 * (report-import.ts: Open report, a share link, the offline HTML viewer, stored reports). A file
 * from anywhere is untrusted: it is refused with a message naming the first bad field, never
 * half-loaded.
 *
 * Limits and null handling (documented here because users meet them as messages):
 * - a report file may be at most MAX_REPORT_BYTES (200 MB); any one string at most
 *   MAX_STRING_LENGTH (100,000 characters); larger inputs are refused before parsing. Both are
 *   stated in report-limits.ts, whose fitReportLimits every writer applies: a longer text the app
 *   itself produced (a model's reply) is cut there with a marker, so the app's files always open.
 * - JSON has no NaN: the app writes an undefined statistic as null. On import, null is accepted
 *   only where the core may produce NaN — every number under `metrics` (ECEs, Brier parts, AUROC,
 *   bin means of empty bins, interval bounds) — and is read back as NaN. A per-question signal
 *   in `signals` may be null, meaning "not available for this question" (the key is dropped).
 *   Per-question Sem1, Sem2, verbalized, margin, entropy and every count must be finite numbers.
 * - Infinity cannot come from the app (JSON.stringify writes it as null); a literal like 1e999
 *   parses to Infinity and is refused as "expected a finite number".
 * - Every number is range-checked, so a forged report cannot show "Accuracy 700 %" or make the
 *   app allocate or compute without end: settings within model/scoring-limits.ts (bins, B, R,
 *   seeds, samples), probabilities, accuracies, ECEs, MCE, AUROC, AURC and Brier scores in [0,1],
 *   Brier resolution and uncertainty in [0,1/4], differences of two of them in [-1,1], counts whole
 *   and non-negative, every list of bounded length. A message names the field and the value.
 */
import { z } from 'zod';
import { REPORT_FORMAT, REPORT_VERSION, type ReportDocument } from '../model/report';
import { METRICS, type MetricKey } from '../model/metrics';
import { SIGNAL_NAMES, type SignalName } from '../model/signals';
import { CLUSTERING_METHOD_NAMES } from '../model/clustering-methods';
import { ANSWER_SIMILARITY_SOURCES } from '../model/rows';
import {
  MAX_BINS,
  MAX_BOOTSTRAP_B,
  MAX_COMPLETION_TOKENS,
  MAX_REPORT_MODELS,
  MAX_REPORT_QUESTIONS,
  MAX_SAMPLES_PER_QUESTION,
  MAX_TEMPERATURE,
  MIN_BINS,
} from '../model/scoring-limits';

import { MAX_REPORT_BYTES, MAX_STRING_LENGTH } from './report-limits';
import { MAX_FIELD_NAME_LENGTH, MAX_FIELD_TEXT_LENGTH, MAX_QUESTION_FIELDS } from '../model/question-fields';
import {
  shown,
  expect,
  list,
  text,
  finite,
  within,
  unit,
  count,
  seed,
  stat,
  rate,
  unitOrNaN,
  bySignal,
  signalName,
  rateInterval,
  differenceInterval,
  sem2SettingsSchema,
} from './report-schema-fields';
import { storedAbstention } from './report-schema-abstention';
import { mcBaseline } from './report-schema-baseline';
import { auditClasses, auditClassesMismatch, auditLine, auditPlan } from './report-schema-audit';
import { adaptiveRuleProblems, DEFAULT_ADAPTIVE_RULE } from '../core/adaptive-rule';
import type { AdaptiveSettings } from '../model/run-spec';
import { MAX_AUDIT_LINES } from './audit-file';

// Stated once in report-limits.ts, which the writer cuts documents to.
export { MAX_REPORT_BYTES, MAX_STRING_LENGTH };


const reliabilityBin = z.object({
  lo: unit(),
  hi: unit(),
  count: count(),
  meanConfidence: unitOrNaN(),
  accuracy: unitOrNaN(),
});

/** The Brier decomposition (core/brier.ts): resolution is a variance and uncertainty ū(1−ū) of a 0/1 outcome, both ≤ 1/4. */
// The within-bin terms (Stephenson et al. 2008) are absent from reports made before they were stored.
const brierDecomposition = z.object({
  score: rate(),
  reliability: rate(),
  resolution: stat(0, 0.25),
  uncertainty: stat(0, 0.25),
  withinBinVariance: stat(0, 0.25).optional(),
  withinBinCovariance: stat(-0.5, 0.5).optional(),
});

/**
 * One field per metric of the metrics table (Brier as its decomposition), then the reliability
 * bins. Every scalar metric (ECEs, MCE, AUROC, AURC, mean confidence) lies in [0,1].
 */
const signalMetrics = z.object({
  ...(Object.fromEntries(METRICS.map((m) => [m.key, m.shape === 'brier' ? brierDecomposition : rate()])) as Record<
    Exclude<MetricKey, 'brier'>,
    ReturnType<typeof rate>
  > & { brier: typeof brierDecomposition }),
  // Smooth ECE's bandwidth σ ∈ (0, 1]; absent in reports made before it was stored.
  smoothEceBandwidth: rate().optional(),
  bins: list(reliabilityBin, MAX_BINS),
  binsEqualMass: list(reliabilityBin, MAX_BINS),
});

const questionCount = () => count(0, MAX_REPORT_QUESTIONS);

/** A signal's ECE interval [low, high] and the p-value of its calibration test (model/report.ts EceInferenceEntry). */
const eceInferenceEntry = z.object({ interval: z.tuple([rate(), rate()], { error: expect('[low, high]') }), p: rate() });

/** One equal-width bin's consistency band (model/report.ts ConsistencyBandEntry). */
const consistencyBand = z.object({ bin: count(0, MAX_BINS - 1), count: questionCount(), lo: rate(), hi: rate() });

/** A signal's PRR (≤ 1, unbounded below: a ranking worse than random) and AUARC (model/report.ts RejectionEntry). */
const rejectionEntry = z.object({ prr: stat(-Number.MAX_VALUE, 1), auarc: rate() });

/** A signal's ECE after a recalibration map with its interval and calibration test (model/report.ts RecalibratedEceEntry). */
const recalibratedEceEntry = z.object({ ece: rate(), interval: z.tuple([rate(), rate()], { error: expect('[low, high]') }), p: rate() });

const recalibration = z.object({
  seed: seed(),
  method: text(),
  isotonic: bySignal(recalibratedEceEntry),
  platt: bySignal(recalibratedEceEntry),
});

const regimeEntry = z.object({
  count: questionCount(),
  ece: bySignal(rate()),
  eceBiasCorrected: bySignal(rateInterval).optional(),
  eceInference: bySignal(eceInferenceEntry).optional(),
});

/** The stored signal comparison (model/report.ts SignalComparison). */
const signalComparison = z.object({
  rows: questionCount(),
  compared: list(signalName, SIGNAL_NAMES.length),
  excluded: list(z.object({ signal: signalName, reason: text() }), SIGNAL_NAMES.length),
  ece: bySignal(rateInterval),
  best: signalName.nullable(),
  runnerUp: signalName.nullable(),
  byHowMuch: differenceInterval.nullable(),
  intervals: bySignal(differenceInterval),
  clearlyBetterThan: list(signalName, SIGNAL_NAMES.length),
  B: count(0, MAX_BOOTSTRAP_B),
  seed: seed(),
  // The naming rule and its tests; absent from reports saved before it (model/report.ts SignalSelection).
  selection: z
    .object({
      method: text(),
      alpha: rate(),
      perComparison: rate(),
      comparisons: count(0, SIGNAL_NAMES.length),
      draws: count(0, MAX_BOOTSTRAP_B),
      tests: bySignal(z.object({ diff: stat(-1, 1), p: rate() })),
      named: z.boolean(),
    })
    .optional(),
});

const modelMetrics = z
  .object({
    questions: questionCount(),
    excluded: questionCount(),
    accuracy: rate(),
    signals: bySignal(signalMetrics),
    bootstrap: z.object({
      // Sem1 − Sem2 in mean confidence and in ECE: differences of two rates.
      d_conf: differenceInterval,
      d_ece: differenceInterval,
      d_ece_lo: differenceInterval,
      n_lo: questionCount(),
      B: count(0, MAX_BOOTSTRAP_B),
      seed: seed(),
    }),
    eceIntervals: bySignal(rateInterval),
    eceBiasCorrected: bySignal(rateInterval).optional(),
    // The one interval and test every view shows (absent in reports made before they existed).
    eceInference: bySignal(eceInferenceEntry).optional(),
    eceInferenceMethod: text().optional(),
    consistencyBands: bySignal(list(consistencyBand, MAX_BINS)).optional(),
    byRegime: z.object({ jensen: regimeEntry, 'low-margin': regimeEntry, 'large-margin': regimeEntry }),
    // K̄, a mean count of non-empty classes: at most the samples of a question.
    meanClasses: stat(0, MAX_SAMPLES_PER_QUESTION),
    // Version 3 on: absent in older reports.
    rejection: bySignal(rejectionEntry).optional(),
    recalibration: recalibration.optional(),
    comparison: signalComparison.optional(),
    recalibratedComparison: signalComparison.optional(),
    abstention: storedAbstention.optional(),
  })
  .superRefine((m, ctx) => {
    // The regimes split the scored questions: together they cannot hold more.
    const inRegimes = m.byRegime.jensen.count + m.byRegime['low-margin'].count + m.byRegime['large-margin'].count;
    if (inRegimes > m.questions) {
      ctx.addIssue({ code: 'custom', path: ['byRegime'], message: `the regimes count ${inRegimes} questions but questions is ${m.questions}` });
    }
    if (m.bootstrap.n_lo > m.questions) {
      ctx.addIssue({ code: 'custom', path: ['bootstrap', 'n_lo'], message: `${m.bootstrap.n_lo} low-margin questions but questions is ${m.questions}` });
    }
  });

const reportSample = z.object({
  raw: text().optional(),
  // The reply's length when the writer cut it to MAX_STRING_LENGTH (report-limits.ts).
  rawLength: count().optional(),
  answer: text(),
  confidence: z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') }),
  cls: count(0, MAX_SAMPLES_PER_QUESTION),
});

/** A per-question signal may be null (not available here): the key is dropped. */
// The dataset columns kept with a question (model/question-fields.ts): a few short strings or numbers.
const questionFields = z
  .record(
    z.string().max(MAX_FIELD_NAME_LENGTH, { error: `a field name longer than ${MAX_FIELD_NAME_LENGTH} characters` }),
    z.union([z.string().max(MAX_FIELD_TEXT_LENGTH), finite()], { error: expect(`a string of at most ${MAX_FIELD_TEXT_LENGTH} characters or a finite number`) }),
    { error: expect('an object of short fields') },
  )
  .refine((f) => Object.keys(f).length <= MAX_QUESTION_FIELDS, { error: `more than ${MAX_QUESTION_FIELDS} fields` });

const questionSignals = bySignal(z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') })).transform(
  (s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null && v !== undefined)) as Partial<Record<SignalName, number>>,
);

const reportQuestion = z
  .object({
    id: text(),
    question: text(),
    gold: text(),
    n: count(1, MAX_SAMPLES_PER_QUESTION),
    sem1: unit(),
    sem2: unit(),
    verbalized: unit(),
    signals: questionSignals.optional(),
    correct: z.union([z.literal(0), z.literal(1)], { error: expect('0 or 1') }),
    grade: z.enum(['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'], { error: expect('CORRECT, INCORRECT or NOT_ATTEMPTED') }),
    overridden: z.boolean({ error: expect('true or false') }).optional(),
    margin: unit(),
    // √n · margin with margin in [0,1]: at most √100,000 ≈ 316.
    stdMargin: within(0, Math.ceil(Math.sqrt(MAX_SAMPLES_PER_QUESTION))),
    regime: z.enum(['jensen', 'low-margin', 'large-margin'], { error: expect('jensen, low-margin or large-margin') }),
    // The entropy of n samples' classes is at most ln n: ln 100,000 ≈ 11.5.
    entropy: within(0, Math.ceil(Math.log(MAX_SAMPLES_PER_QUESTION))),
    nClasses: count(0, MAX_SAMPLES_PER_QUESTION),
    modalLabel: text(),
    classes: list(z.object({ label: text(), size: count(0, MAX_SAMPLES_PER_QUESTION) }), MAX_SAMPLES_PER_QUESTION).optional(),
    samples: list(reportSample, MAX_SAMPLES_PER_QUESTION).optional(),
    fields: questionFields.optional(),
    // An adaptively sampled question's selection block (absent in fixed-n and older reports).
    selectionSamples: count(1, MAX_SAMPLES_PER_QUESTION).optional(),
  })
  .superRefine((q, ctx) => {
    // A question's non-empty classes are among its n samples.
    if (q.nClasses > q.n) ctx.addIssue({ code: 'custom', path: ['nClasses'], message: `${q.nClasses} classes but only ${q.n} samples (n)` });
    // Adaptive Sem2 is the share of the samples after the selection block: at least one must be there.
    if (q.selectionSamples !== undefined && q.selectionSamples >= q.n) {
      ctx.addIssue({ code: 'custom', path: ['selectionSamples'], message: `a selection block of ${q.selectionSamples} leaves no held-out sample of ${q.n} (n)` });
    }
    // A drill-down indexes classes by a sample's cls: an index past the list would show nothing.
    if (!q.classes || !q.samples) return;
    q.samples.forEach((s, i) => {
      if (s.cls >= q.classes!.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['samples', i, 'cls'],
          message: `class index ${s.cls} but the question lists ${q.classes!.length} classes`,
        });
      }
    });
  });

const modelReport = z
  .object({
    model: text(),
    provider: text().optional(),
    metrics: modelMetrics,
    questions: list(reportQuestion, MAX_REPORT_QUESTIONS),
    excludedQuestions: list(z.object({ id: text(), reason: text() }), MAX_REPORT_QUESTIONS),
    baseline: mcBaseline.optional(),
    graphSimilarity: z.enum(['partition', ...ANSWER_SIMILARITY_SOURCES]).optional(),
    // USD per million tokens, as the price table holds them (model/cost.ts).
    price: z.object({ input: finite().min(0, { error: expect('a price ≥ 0') }), output: finite().min(0, { error: expect('a price ≥ 0') }) }).optional(),
  })
  .superRefine((m, ctx) => {
    // The metrics are computed over exactly the rows; only a summary (a link without rows) has none.
    if (m.questions.length > 0 && m.questions.length !== m.metrics.questions) {
      ctx.addIssue({ code: 'custom', path: ['metrics', 'questions'], message: `${m.metrics.questions} but the report holds ${m.questions.length} question rows` });
    }
  });

const method = <T extends readonly [string, ...string[]]>(values: T) =>
  z.object({ method: z.enum(values, { error: `expected one of ${values.join(', ')}` }), detail: text().optional() });

const reportSettings = z.object({
  // 0: no Sem-ECE sampling (a report holding only the stated-probability baseline).
  samples: count(0, MAX_SAMPLES_PER_QUESTION),
  temperature: within(0, MAX_TEMPERATURE).optional(),
  topP: unit().optional(),
  maxTokens: count(0, MAX_COMPLETION_TOKENS).optional(),
  prompt: text().optional(),
  // Whether token log-probabilities and p(True) were asked (optional: reports before them open unchanged).
  logprobs: z.boolean().optional(),
  pTrue: z.object({ samples: count(1), brainstorm: z.boolean() }).optional(),
  clustering: method([...CLUSTERING_METHOD_NAMES, 'imported'] as const),
  grading: method(['judge', 'alias', 'imported', 'manual'] as const),
  sem2: sem2SettingsSchema,
  // Each bin is an entry of every signal's bins lists and a pass of every bootstrap replicate.
  bins: count(MIN_BINS, MAX_BINS),
  bootstrap: z.object({ B: count(0, MAX_BOOTSTRAP_B), seed: seed() }),
  // An adaptive run's stopping rule (core/adaptive-rule.ts): a number for each setting the defaults
  // name and for any optional one it sets, their ranges checked with adaptiveRuleProblems against
  // `samples`, its maximum.
  adaptive: (
    z
      .object(Object.fromEntries(Object.keys(DEFAULT_ADAPTIVE_RULE).map((k) => [k, within(0, MAX_SAMPLES_PER_QUESTION)])))
      .catchall(within(0, MAX_SAMPLES_PER_QUESTION)) as unknown as z.ZodType<AdaptiveSettings>
  ).optional(),
}).superRefine((s, ctx) => {
  if (!s.adaptive) return;
  for (const message of adaptiveRuleProblems({ ...s.adaptive, maxSamples: s.samples })) ctx.addIssue({ code: 'custom', path: ['adaptive'], message });
});

const HASH = /^[0-9a-f]{32}$/;

export const reportDocumentSchema = z.object({
  format: z.literal(REPORT_FORMAT),
  version: z.literal(REPORT_VERSION),
  title: text(),
  createdAt: text(),
  demo: z.boolean({ error: expect('true or false') }).optional(),
  testModel: list(text(), 16).optional(),
  dataset: z.object({
    name: text(),
    questions: questionCount(),
    source: text().optional(),
    // A seeded draw (model/rows.ts QuestionSubset): its seed is default_rng's, its ids the questions asked.
    subset: z
      .object({ of: questionCount(), seed: seed(), stratifiedBy: z.literal('category').optional(), ids: list(text(), MAX_REPORT_QUESTIONS) })
      .optional(),
  }),
  partial: z
    .object({ questions: count(), of: count(), status: z.enum(['queued', 'running', 'paused', 'cancelled', 'failed', 'done'], { error: 'expected a run status' }) })
    .refine((p) => p.questions <= p.of, { error: 'a partial report scores at most as many questions as its run has' })
    .optional(),
  settings: reportSettings,
  models: list(modelReport, MAX_REPORT_MODELS),
  // model/report-manifest.ts: 128-bit hex hashes per question and of the settings.
  manifest: z
    .object({
      method: text(),
      settings: z.string().regex(HASH, { error: expect('a 32-digit hex hash') }),
      models: list(z.object({ model: text(), questions: z.record(z.string().max(MAX_STRING_LENGTH), z.string().regex(HASH, { error: expect('a 32-digit hex hash') })) }), MAX_REPORT_MODELS),
    })
    .optional(),
  // A person's audit of the classes and grades (issue 30), shared with the report; absent when none was attached.
  audit: list(auditLine, MAX_AUDIT_LINES).optional(),
  // How the attached audit's questions were drawn (issue 30); absent when none was kept.
  auditPlans: list(auditPlan, 1000).optional(),
  // The audited questions' automatic classes, kept where the samples are not (a kept copy of a "rows" share link).
  auditClasses: auditClasses.optional(),
}).superRefine((doc, ctx) => {
  // They must fit the report's own questions, or the audit would compare partitions of other answers.
  const wrong = doc.auditClasses && auditClassesMismatch(doc.auditClasses, doc, { auditedOnly: false });
  if (wrong) ctx.addIssue({ code: 'custom', path: ['auditClasses', ...wrong.path], message: wrong.names ? `names ${wrong.problem}` : wrong.problem });
});

// The schema's output must be usable wherever a ReportDocument is expected.
type Parsed = z.output<typeof reportDocumentSchema>;
const _assignable = (p: Parsed): ReportDocument => p;
void _assignable;
