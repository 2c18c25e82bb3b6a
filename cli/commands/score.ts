/**
 * `semece score`: Sem1, Sem2, verbalized confidence and every calibration metric from the authors' clustered + graded JSONL files, printed as one JSON document.
 *
 * stdout gets exactly one JSON document (NaN written as null): per-question values under the
 * authors' names, then the metrics (accuracy, ECE per signal, Brier, the paired bootstrap
 * [point, low, high], companions). A one-line summary of exclusions goes to stderr.
 * Exit codes (cli/exit-codes.ts): 0 every question scored; 3 some questions excluded (the
 * document is printed over the rest); 2 bad usage or input (the message names the file, line and
 * problem), and also when no question can be scored at all, since there is nothing to report;
 * 1 the --report file cannot be written.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readAuthorsRows } from '../../src/formats/authors-rows.ts';
import { SCORING_DEFAULTS } from '../../src/model/run-spec.ts';
import { PAPER_SIGNALS, SIGNAL_NAMES, SIGNALS, type SignalName } from '../../src/model/signals.ts';
import { MAX_BINS, MAX_BOOTSTRAP_B, MAX_SAMPLES_PER_QUESTION, MAX_SEM2_R, MIN_BINS } from '../../src/model/scoring-limits.ts';
import { scoreAuthorsRowsBeside, type BootstrapRunner, type ScoreOptions } from '../../src/pipeline/score-stage.ts';
import { startBootstrapThread } from '../bootstrap-thread-runner.ts';
import { buildReport, importedSettings, scoreCliDocument } from '../../src/pipeline/score-documents.ts';
import { MIN_PER_BIN, smallBinCaveats } from '../../src/pipeline/small-bins.ts';
import { sliceReport, slicesCliDocument, sliceTestCliDocument, type SliceAnalysis } from '../../src/pipeline/slices.ts';
import { reportManifest } from '../../src/model/report-manifest.ts';
import type { ModelReport } from '../../src/model/report.ts';
import { reportJsonFile } from '../../src/formats/report-export.ts';
import { leftOutNote } from '../../src/formats/report-limits.ts';
import { toJson } from '../json.ts';
import { resolveIo, writeFileAtomic, type Io } from '../command-io.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { reportSource } from '../report-paths.ts';
import { inputText } from '../input-text.ts';
import { auditMember, type AuditMemberOk } from '../score-audit.ts';
import type { JsonlText } from '../../src/formats/jsonl-rows.ts';
import { SCORE_ADAPTIVE_HELP, SCORE_ADAPTIVE_OPTIONS, scoreAdaptiveMaximum, scoreAdaptiveRule } from '../adaptive-options.ts';
import type { AdaptiveSettings } from '../../src/model/run-spec.ts';

const D = SCORING_DEFAULTS;

/**
 * Without --signals the command scores the signals that are probabilities (the paper's, entropy
 * confidence, and a multiple-choice run's): the uncertainty scores of the black-box methods cost
 * their metrics and recalibrations per signal, and lexical similarity a pass over every pair of
 * answers, which at the paper's scale would double the command's time. `--signals all` asks for
 * every one.
 */
const DEFAULT_SIGNALS: readonly SignalName[] = SIGNALS.filter((s) => s.probability).map((s) => s.name);

export const USAGE = `usage: semece score --clustered FILE --graded FILE [options]
  --R N                Sem2 splits per question (default ${D.sem2.R})
  --sem2-seed N        seed of Sem2's per-question default_rng (default ${D.sem2.seed})
  --sem2-selection N   samples in Sem2's selection block (default: half, floor(n/2)); a row with
                       selection_samples (semece sample --adaptive) has its own: its Sem2 is the
                       held-out share of that block's modal class, one split (docs/STATISTICS.md)
${SCORE_ADAPTIVE_HELP}
  --bins N             bins of the paper ECE (default ${D.bins}, edges i*${1 / D.bins})
  --B N                bootstrap replicates (default ${D.bootstrap.B})
  --bootstrap-seed N   seed of the bootstrap's default_rng stream (default ${D.bootstrap.seed})
  --model NAME         model name for the report (default: the rows' "model")
  --regime-intervals   also print each margin regime's bootstrap bias-corrected ECE with its
                       basic interval (one more bootstrap over each regime's questions; --report
                       always has them); its ece_interval and calibration_p are always printed
  --by COLUMN          also slice the questions by a field of the clustered rows (category, or any
                       short top-level field kept with the question): adds "slices" (per value:
                       questions, accuracy, ece, ece_interval …) and "slice_test" (does calibration
                       differ across slices; README.md, "Command line"); numbers with many values
                       are binned on a log10 scale
  --signals LIST       the signals to score, comma-separated, or 'all' for every one the rows allow;
                       the paper's three are always scored (default: the signals that are
                       probabilities, where the rows allow them: ${DEFAULT_SIGNALS.join(', ')})
                       names: ${SIGNAL_NAMES.join(', ')}
  --report FILE        also write the full report document (open it in the app), the same signals
  --audit FILE         a person's audit of some questions (JSONL: id, classes, grade, by, at;
                       README.md, "Audits"): adds "audit" (questions, kappa, ari, ece_shift
                       {signal: {estimate, interval}} …; with --by, per slice under
                       "slices") to the document
  --pretty             indent the JSON
Prints one JSON document on stdout: per question its "signals" {name: value} (each a confidence
in [0,1]; for an uncertainty score its confidence form, README.md), and under "metrics" the maps
auroc, prr, auarc, ece_recalibrated by signal (and the calibration metrics of the signals that are
probabilities); NaN is written as null.
metrics.ece_interval is the one interval shown beside each ECE, metrics.calibration_p the
p-value of the test of perfect calibration (README.md, "Command line"). Bins under 10 questions
are named on stderr, per signal and margin regime.
When no question can be scored (every row excluded) nothing is printed and the exit code is 2.
${EXIT_CODES_HELP}`;


class UsageError extends Error {}

function intOption(raw: string | undefined, flag: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${flag} must be a whole number, got '${raw}'`);
  const v = Number(raw);
  if (v < min || v > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${v}`);
  return v;
}

/** The file as text for the reader (cli/input-text.ts), or a usage error naming it. */
async function readText(file: string, flag: string): Promise<JsonlText> {
  try {
    return await inputText(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
    throw new UsageError(`cannot read ${flag} ${file}: ${why}`);
  }
}

/** The command's settings, as read from its flags. */
interface ScoreArgs {
  clustered: string;
  graded: string;
  report: string | undefined;
  model: string | undefined;
  by: string | undefined;
  /** --audit: a person's audit file. */
  audit: string | undefined;
  regimeIntervals: boolean;
  /** Whether --signals named the signals (only then is a missing one said on stderr). */
  signalsAsked: boolean;
  pretty: boolean;
  options: ScoreOptions;
  /** --adaptive: the rule's flags and --samples, made into the rule once the rows give the maximum. */
  adaptive: { values: Parameters<typeof scoreAdaptiveRule>[0]; maximum: number | undefined } | undefined;
}

type Say = (s: string) => void;

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err } = resolveIo(io);
  try {
    const a = scoreArgs(argv);
    if (a === 'help') {
      out(USAGE);
      return EXIT.ok;
    }
    const files = { outputs: [{ flag: '--report', file: a.report }], inputs: [{ flag: '--clustered', file: a.clustered }, { flag: '--graded', file: a.graded }, { flag: '--audit', file: a.audit }] };
    return await withOutputs('score', files, err, () => scoreCommand(a, out, err));
  } catch (e) {
    if (e instanceof UsageError) {
      err(`semece score: ${e.message}\n\n${USAGE}`);
      return EXIT.badInput;
    }
    throw e;
  }
}

/** The flags read and checked into the scoring options; throws a UsageError. */
function scoreArgs(argv: string[]): ScoreArgs | 'help' {
  let a;
  try {
    a = parseArgs({
      args: argv,
      options: {
        clustered: { type: 'string' }, graded: { type: 'string' },
        R: { type: 'string' }, 'sem2-seed': { type: 'string' }, 'sem2-selection': { type: 'string' }, bins: { type: 'string' },
        B: { type: 'string' }, 'bootstrap-seed': { type: 'string' },
        model: { type: 'string' }, report: { type: 'string' }, by: { type: 'string' }, signals: { type: 'string' }, audit: { type: 'string' },
        'regime-intervals': { type: 'boolean' }, pretty: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
        ...SCORE_ADAPTIVE_OPTIONS,
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (a.help) return 'help';
  if (!a.clustered || !a.graded) throw new UsageError('both --clustered FILE and --graded FILE are required');
  const selection = a['sem2-selection'];
  let maximum: number | undefined;
  try {
    maximum = scoreAdaptiveMaximum(a);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { names: signals, asked: signalsAsked } = signalsOption(a.signals);
  const options: ScoreOptions = {
    R: intOption(a.R, '--R', D.sem2.R, 1, MAX_SEM2_R),
    sem2Seed: intOption(a['sem2-seed'], '--sem2-seed', D.sem2.seed, 0),
    sem2Selection: selection === undefined || selection === 'half' ? 'half' : intOption(selection, '--sem2-selection', 1, 1, MAX_SAMPLES_PER_QUESTION),
    bins: intOption(a.bins, '--bins', D.bins, MIN_BINS, MAX_BINS),
    B: intOption(a.B, '--B', D.bootstrap.B, 1, MAX_BOOTSTRAP_B),
    bootstrapSeed: intOption(a['bootstrap-seed'], '--bootstrap-seed', D.bootstrap.seed, 0),
    samples: a.report ? 'raw' : 'none',
    // The printed document has regime intervals only when asked (their cost is a bootstrap per
    // regime); a report document shows them, as the app's do.
    regimeIntervals: Boolean(a.report || a['regime-intervals']),
    // The probabilities unless --signals names others or 'all' (the paper's three always), printed and in --report alike.
    signals,
    // The signal comparison, abstention thresholds and consistency bands are the report's views'
    // (the printed document has none of them): computed only for a report document.
    viewExtras: Boolean(a.report),
  };
  return { clustered: a.clustered, graded: a.graded, report: a.report, model: a.model, by: a.by, audit: a.audit, regimeIntervals: Boolean(a['regime-intervals']), signalsAsked, pretty: Boolean(a.pretty), options, adaptive: a.adaptive ? { values: a, maximum } : undefined };
}


/** --signals as names of the signals table ('all' → undefined: every one); an unknown name is a usage error listing the valid ones. */
function signalsOption(raw: string | undefined): { names: SignalName[] | undefined; asked: boolean } {
  if (raw === undefined) return { names: [...DEFAULT_SIGNALS], asked: false };
  if (raw.trim() === 'all') return { names: undefined, asked: true };
  const names = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = names.filter((s) => !(SIGNAL_NAMES as readonly string[]).includes(s));
  if (names.length === 0 || unknown.length > 0) {
    const what = names.length === 0 ? 'no signal named' : `unknown signal${unknown.length > 1 ? 's' : ''} ${unknown.map((s) => `'${s}'`).join(', ')}`;
    throw new UsageError(`--signals: ${what}; valid: all, ${SIGNAL_NAMES.join(', ')}`);
  }
  return { names: [...new Set(names)] as SignalName[], asked: true };
}

/** Whether the answers' text is needed: for --report's drill-down, or for a signal computed from it. */
function needsAnswers(a: ScoreArgs): boolean {
  return Boolean(a.report) || a.adaptive !== undefined || a.options.signals === undefined || a.options.signals.includes('lexical_similarity');
}

/**
 * The command's phases: the two files read and joined, the questions scored, the document printed
 * (sliced with --by), the exclusions and small bins said on stderr, and the report written with --report.
 */
async function scoreCommand(a: ScoreArgs, out: Say, err: Say): Promise<number> {
  // Started first, so that the bootstrap's thread loads while the rows are read.
  const bootstrap = startBootstrapThread();
  try {
    return await scoreWith(bootstrap.run, a, out, err);
  } finally {
    bootstrap.close();
  }
}

async function scoreWith(runBootstrap: BootstrapRunner, a: ScoreArgs, out: Say, err: Say): Promise<number> {
  const scored = await readRows(a, err);
  if (!scored) return EXIT.badInput;
  const adaptive = adaptiveRule(a, scored, err);
  if (adaptive === false) return EXIT.badInput;
  const { options } = a;
  const report = await scoreAuthorsRowsBeside(runBootstrap, scored, options, a.model);
  const document = scoreCliDocument(report, scored, options, { regimeIntervals: a.regimeIntervals });
  let sliced: SliceAnalysis | undefined;
  if (a.by !== undefined) {
    try {
      sliced = sliceReport(report.questions, a.by, PAPER_SIGNALS, { bins: options.bins!, seed: options.bootstrapSeed! });
    } catch (e) {
      err(`semece score: --by ${a.by}: ${(e as Error).message} (in ${a.clustered})`);
      return EXIT.badInput;
    }
  }
  let audit: Record<string, unknown> = {};
  let auditLines: Pick<AuditMemberOk, 'lines' | 'plans'> | undefined;
  if (a.audit !== undefined) {
    // With --by, the audit is sliced as the report is (audit.slices beside slices).
    const member = await auditMember(a.audit, report, scored.questions, scored.excluded, options, a.by);
    if (!member.ok) {
      for (const problem of member.problems) err(`semece score: ${problem}`);
      return EXIT.badInput;
    }
    audit = { audit: member.audit };
    auditLines = member;
  }
  out(toJson({ ...document, ...(sliced ? { slices: slicesCliDocument(sliced), slice_test: sliceTestCliDocument(sliced) } : {}), ...audit }, { pretty: a.pretty }));
  sayCounts(report.questions.length, scored, err);
  // A signal asked for by name that these rows do not give on every question is said, not silently missing.
  for (const s of a.signalsAsked ? options.signals ?? [] : []) {
    if (!report.metrics.signals[s]) err(`semece score: note: ${s} is not scored: not every question has it in these rows (README.md, "semece score")`);
  }
  // The report's small-sample rule, per bin (pipeline/small-bins.ts), for the ECEs printed.
  const caveats = smallBinCaveats([report], PAPER_SIGNALS, { bins: options.bins!, regimes: true });
  if (caveats.length) {
    err(`semece score: note: bins under ${MIN_PER_BIN} questions give coarse accuracies, so an ECE over them is mostly noise and reads high:`);
    for (const line of caveats) err(`semece score: note:   ${line}`);
  }
  if (a.report && !(await writeReport(a, a.report, report, scored, err, auditLines, adaptive))) return EXIT.failed;
  // Some questions were left out: the document stands, but a script should know it is partial.
  return scored.excluded.length > 0 ? EXIT.partial : EXIT.ok;
}

type ScoredRows = Extract<ReturnType<typeof readAuthorsRows>, { ok: true }>['value'];

/**
 * --adaptive's rule, checked against every scored row (cli/adaptive-options.ts); undefined
 * without --adaptive (then adaptive rows with --report are said: the report cannot replay their
 * rounds), false once a row that the rule does not give is named.
 */
function adaptiveRule(a: ScoreArgs, scored: ScoredRows, err: Say): { settings: AdaptiveSettings; maxSamples: number } | undefined | false {
  if (!a.adaptive) {
    if (a.report && scored.questions.some((q) => q.clustered.selection_samples !== undefined)) {
      err('semece score: note: these rows were sampled adaptively (selection_samples); without --adaptive (and the rule\'s flags semece sample used) the report does not record the rule, so it cannot show each question\'s rounds');
    }
    return undefined;
  }
  const rows = scored.questions.map((q) => ({ id: q.clustered.id, line: q.clusteredLine, answers: q.clustered.answer_extracted, selection_samples: q.clustered.selection_samples }));
  let checked;
  try {
    checked = scoreAdaptiveRule(a.adaptive.values, a.adaptive.maximum, rows, a.clustered);
  } catch (e) {
    err(`semece score: ${(e as Error).message}`);
    return false;
  }
  if (!checked.ok) {
    for (const problem of checked.problems) err(`semece score: ${problem}`);
    return false;
  }
  return { settings: checked.settings, maxSamples: checked.maxSamples };
}

/** The clustered and graded rows joined, exclusions named as the report names the graded file; undefined once the problem is said. */
async function readRows(a: ScoreArgs, err: Say): Promise<ScoredRows | undefined> {
  const [clusteredText, gradedText] = await Promise.all([readText(a.clustered, '--clustered'), readText(a.graded, '--graded')]);
  // The raw replies are only needed for the report document's drill-down, the answers also for lexical similarity.
  const rows = readAuthorsRows({ text: clusteredText, file: a.clustered }, { text: gradedText, file: a.graded }, { dropReplies: !a.report, dropAnswers: !needsAnswers(a) });
  if (!rows.ok) {
    err(`semece score: ${rows.error.message}`);
    return undefined;
  }
  if (rows.value.questions.length === 0) {
    // The reader refuses files without rows, so every clustered row was excluded, with a reason.
    const first = rows.value.excluded[0];
    err(`semece score: no question can be scored: ${rows.value.excluded.length} excluded${first ? ` (first: ${first.id}: ${first.reason})` : ''}`);
    return undefined;
  }
  // An exclusion's reason can name the graded file; the report keeps it as reportSource names
  // it, so no absolute path travels in a shared report.
  const named = reportSource(a.graded);
  return named === a.graded ? rows.value : { ...rows.value, excluded: rows.value.excluded.map((x) => ({ ...x, reason: x.reason.split(a.graded).join(named) })) };
}

/** How many questions were scored and excluded, and the rows ignored, on one stderr line. */
function sayCounts(scoredCount: number, scored: ScoredRows, err: Say): void {
  const { excluded, duplicates, unmatchedGraded } = scored;
  err(
    `semece score: ${scoredCount} questions scored, ${excluded.length} excluded` +
      (duplicates.length ? `, ${duplicates.length} duplicate rows ignored (first row per id kept)` : '') +
      (unmatchedGraded.length ? `, ${unmatchedGraded.length} graded rows without a clustered row` : ''),
  );
}

/** The report document to --report, with its manifest, at the most detail the app opens; false once a failure to write is said. */
async function writeReport(
  a: ScoreArgs,
  reportFile: string,
  report: ModelReport,
  scored: ScoredRows,
  err: Say,
  auditLines?: Pick<AuditMemberOk, 'lines' | 'plans'>,
  adaptive?: { settings: AdaptiveSettings; maxSamples: number },
): Promise<boolean> {
  // The most samples a question has: rows sampled adaptively (selection_samples) vary in n; --adaptive's maximum when given.
  const samples = adaptive?.maxSamples ?? report.questions.reduce((most, q) => Math.max(most, q.n), 0);
  const doc = buildReport([report], {
    title: `${report.model} — ${path.basename(a.clustered)}`,
    dataset: { name: path.basename(a.clustered), source: reportSource(a.clustered) },
    settings: { ...importedSettings(a.options, samples, scored.methods), ...(adaptive ? { adaptive: adaptive.settings } : {}) },
    createdAt: new Date().toISOString(),
  });
  // Hashes of every question's samples, classes and grade, and of the settings: `semece verify` checks them.
  // The audit travels with the report (the app shows it, the offline HTML embeds it).
  if (auditLines) doc.audit = auditLines.lines;
  if (auditLines?.plans.length) doc.auditPlans = auditLines.plans;
  doc.manifest = await reportManifest(doc);
  // Raw replies, then samples, left out past MAX_REPORT_BYTES.
  const file = reportJsonFile(doc);
  if (!file.ok) {
    err(`semece score: cannot write --report ${reportFile}: ${file.error.message}`);
    return false;
  }
  if (file.value.leftOut !== 'nothing') err(`semece score: --report ${reportFile}: ${leftOutNote(file.value.leftOut)}`);
  try {
    await writeFileAtomic(reportFile, file.value.text);
    return true;
  } catch (e) {
    err(`semece score: cannot write --report ${reportFile}: ${(e as Error).message}`);
    return false;
  }
}
