/**
 * `semece mc`: the ConfidenceBench-style baseline on a multiple-choice dataset — repeated runs of
 * the stated-probability prompt, Brier score (mean ± sample SD over runs) beside the uniform-guess
 * reference, accuracy, per category, fallbacks; plus the logprob signal when the provider has it,
 * and with --samples N also Sem-ECE on the same questions with every signal compared.
 *
 * Per-run rows go to --out (JSONL, one row per question per run); the summary is printed as JSON.
 * With --cache FILE every reply is kept in FILE (JSONL, the sample cache of `semece sample`), so
 * the same command repeated, or resumed after an interruption, requests only the replies it lacks.
 * The API key is read from the preset's environment variable (or SEMECE_API_KEY), never from the
 * command line, and never printed or written. Exit codes (cli/exit-codes.ts): 0 done, 1 the run
 * failed or an output file cannot be written, 2 bad usage or input.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { toJson } from '../json';
import { readDataset } from '../../src/formats/datasets';
import { createProvider, getPreset } from '../../src/providers/create-provider';
import type { McQuestion } from '../../src/multiple-choice/prompt';
import type { McSemResult } from '../../src/multiple-choice/sem-ece-run';
import type { ReportDocument } from '../../src/model/report';
import type { Dataset } from '../../src/model/rows';
import { toMcQuestions } from '../../src/multiple-choice/mc-questions';
import { MC_DEFAULTS, type McRunOptions, type McRunResult } from '../../src/multiple-choice/stated-probability-run';
import { executeMultipleChoiceRun, type McModelResults } from '../../src/multiple-choice/job';
import { MemoryRunRepository } from '../../src/model/run-repository';
import { newRun } from '../../src/pipeline/runner';
import { UNREACHABLE_KIND } from '../../src/pipeline/unreachable';
import { keyId, type ModelSpec, type RunRecord, type RunSpec } from '../../src/model/run-spec';
import type { ProviderConfig } from '../../src/model/provider';
import { summarizeComparison } from '../../src/pipeline/signal-comparison-summary';
import { SIGNAL_LABEL } from '../../src/model/signals';
import { reportJsonFile } from '../../src/formats/report-export';
import { leftOutNote } from '../../src/formats/report-limits';
import { resolveIo, writeFileAtomic, type Io } from '../command-io.ts';
import { EXIT, EXIT_CODES_HELP, type ExitCode } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { reportSource } from '../report-paths.ts';
import { stoppedLine } from '../provider-stop.ts';
import { JsonlSampleCache } from '../jsonl-sample-cache.ts';
import { baseUrlOption } from '../provider-options.ts';

export const USAGE = `usage: semece mc --provider PRESET --model MODEL --dataset FILE [options]
  --base-url URL       API base URL (default: the preset's)
  --runs N             repeated runs (default 3)
  --seed N             run r uses seed N + r for fallback letters (default 0)
  --temperature T      sampling temperature (default 1)
  --max-tokens N       reply length limit (default 400)
  --no-logprobs        do not ask for token log-probabilities
  --samples N          also Sem-ECE with N samples per question (default 0: off)
  --concurrency N      requests in flight (default 8)
  --cache FILE         keep every reply in FILE (JSONL); a repeated command reads them back
                       instead of asking again
  --out FILE           per-run rows as JSONL
  --sem-out FILE       Sem-ECE rows (clustered + graded + signals) as JSONL
  --report FILE        a report document the app's Open report page opens (the stated-probability
                       baseline, and the Sem-ECE rows when --samples > 0)
The key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY.
${EXIT_CODES_HELP}`;

/** One JSON value per line or document, NaN as null (cli/json.ts). */
function json(value: unknown, indent?: number): string {
  return toJson(value, { pretty: indent !== undefined });
}

function intArg(v: string | undefined, name: string, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}

function numArg(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got ${JSON.stringify(v)}`);
  return n;
}

type Flags = Partial<Record<'provider' | 'base-url' | 'model' | 'dataset' | 'runs' | 'seed' | 'temperature' | 'max-tokens' | 'samples' | 'concurrency' | 'out' | 'sem-out' | 'report' | 'cache', string>> & { 'no-logprobs'?: boolean };
type McSettings = McRunOptions & { samples: number; concurrency: number };
type Say = (s: string) => void;

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err, env } = resolveIo(io);
  let parsed: { a: Flags; settings: McSettings } | 'help';
  try {
    parsed = mcArgs(argv);
  } catch (e) {
    err(`semece mc: ${(e as Error).message}\n${USAGE}`);
    return EXIT.badInput;
  }
  if (parsed === 'help') {
    out(USAGE);
    return EXIT.ok;
  }
  const { a, settings } = parsed;
  const files = {
    outputs: [{ flag: '--out', file: a.out }, { flag: '--sem-out', file: a['sem-out'] }, { flag: '--report', file: a.report }],
    // The cache is read too: an output over it would destroy the replies it keeps.
    inputs: [{ flag: '--dataset', file: a.dataset }, { flag: '--cache', file: a.cache }],
  };
  return withOutputs('mc', files, err, () => mcCommand(a, settings, io, { out, err, env }));
}

/** The flags read and checked; throws a usage error's message. */
function mcArgs(argv: string[]): { a: Flags; settings: McSettings } | 'help' {
  const a = parseArgs({
    args: argv,
    options: {
      provider: { type: 'string' }, 'base-url': { type: 'string' }, model: { type: 'string' }, dataset: { type: 'string' },
      runs: { type: 'string' }, seed: { type: 'string' }, temperature: { type: 'string' }, 'max-tokens': { type: 'string' },
      'no-logprobs': { type: 'boolean' }, samples: { type: 'string' }, concurrency: { type: 'string' },
      out: { type: 'string' }, 'sem-out': { type: 'string' }, report: { type: 'string' }, cache: { type: 'string' }, help: { type: 'boolean' },
    },
    strict: true,
  }).values;
  if (a.help) return 'help';
  for (const name of ['provider', 'model', 'dataset'] as const) if (!a[name]) throw new Error(`--${name} is required`);
  const settings = {
    runs: intArg(a.runs, 'runs', MC_DEFAULTS.runs, 1),
    seed: intArg(a.seed, 'seed', MC_DEFAULTS.seed, 0),
    temperature: numArg(a.temperature, 'temperature', MC_DEFAULTS.temperature),
    maxTokens: intArg(a['max-tokens'], 'max-tokens', MC_DEFAULTS.maxTokens, 1),
    logprobs: !a['no-logprobs'],
    samples: intArg(a.samples, 'samples', 0, 0),
    concurrency: intArg(a.concurrency, 'concurrency', 8, 1),
  };
  return { a, settings };
}

/** The model the command asks, with its key; undefined once the problem (bad usage) is said. */
function mcModel(a: Flags, settings: McSettings, env: NodeJS.ProcessEnv, err: Say): { model: ModelSpec; apiKey: string | undefined } | undefined {
  const preset = getPreset(a.provider!)!;
  const apiKey = (preset.keyEnv ? env[preset.keyEnv] : undefined) ?? env.SEMECE_API_KEY;
  if (preset.needsKey && !apiKey) {
    err(`semece mc: no API key: set ${preset.keyEnv ?? 'SEMECE_API_KEY'}`);
    return undefined;
  }
  let baseUrl: string;
  try {
    baseUrl = baseUrlOption(a['base-url'], preset);
  } catch (e) {
    // A bad address is bad usage (exit 2), as in every other command, not a failed run.
    err(`semece mc: ${(e as Error).message}`);
    return undefined;
  }
  return { model: { kind: preset.kind, preset: preset.id, baseUrl, model: a.model!, concurrency: settings.concurrency }, apiKey };
}

/** The provider, then the dataset read into multiple-choice questions; undefined once the problem (bad usage or input) is said. */
async function mcDataset(a: Flags, err: Say): Promise<{ dataset: Dataset; questions: McQuestion[]; skipped: { where: string; reason: string }[] } | undefined> {
  const preset = getPreset(a.provider!);
  if (!preset) {
    err(`semece mc: unknown provider ${JSON.stringify(a.provider)}`);
    return undefined;
  }
  if (preset.kind === 'in-browser') {
    // The stated-probability baseline asks an API for one letter and its logprobs; the in-page model is offered for Sem-ECE sampling.
    err('semece mc: --provider in-browser samples open answers only (semece sample); the multiple-choice baseline needs a model behind an API');
    return undefined;
  }
  let text: Uint8Array;
  try {
    text = await readFile(a.dataset!);
  } catch (e) {
    err(`semece mc: cannot read the dataset ${a.dataset}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return undefined;
  }
  const read = readDataset(text, a.dataset!);
  if (!read.ok) {
    err(`semece mc: ${read.error.where ? read.error.where + ': ' : ''}${read.error.message}`);
    return undefined;
  }
  const mc = toMcQuestions(read.value.dataset.questions);
  const skipped = [...read.value.skipped, ...mc.skipped];
  for (const s of skipped) err(`skipped ${s.where}: ${s.reason}`);
  if (mc.questions.length === 0) {
    err('semece mc: the dataset has no usable multiple-choice question (each needs 2 to 10 options and a gold letter or option text)');
    return undefined;
  }
  return { dataset: read.value.dataset, questions: mc.questions, skipped };
}

/**
 * The command's phases: the dataset and the model read, then the run — the app's multiple-choice
 * phases (multiple-choice/job.ts) over the one run lifecycle, its record held in memory and its
 * replies in the --cache file: no orchestration of its own — then its files written and its
 * summary printed.
 */
async function mcCommand(a: Flags, settings: McSettings, io: Io, say: { out: Say; err: Say; env: NodeJS.ProcessEnv }): Promise<number> {
  const { out, err } = say;
  const read = await mcDataset(a, err);
  if (!read) return EXIT.badInput;
  const asked = mcModel(a, settings, say.env, err);
  if (!asked) return EXIT.badInput;
  const spec = mcSpec(a, settings, read.dataset, asked.model);
  const samples = await openReplyCache(a.cache, err);
  const runs = new MemoryRunRepository();
  const record = newRun(spec);
  await runs.saveRun(record);
  let results: McModelResults | undefined;
  const deps = { runs, samples, provider: (c: ProviderConfig) => createProvider(c, io.providerDeps), label: () => a.model!, onModel: (r: McModelResults) => (results = r) };
  const ended = await executeMultipleChoiceRun(record.id, asked.apiKey ? { [keyId(asked.model)]: asked.apiKey } : {}, deps, io.signal ?? new AbortController().signal);
  if (ended.status !== 'done' || !results) return stoppedExit(ended, a.cache, err);
  const report = (await runs.getReport(record.id))!;
  const r = results.baseline;
  if (a.out && !(await writeRunRows(a, r.rows, say))) return EXIT.failed;
  const semEce = results.sem ? await semEceSummary(a, settings, results.sem, report) : undefined;
  if (a.report && !(await writeReport(a.report, report, err))) return EXIT.failed;
  out(
    json(
      {
        model: a.model,
        provider: asked.model.preset,
        dataset: read.dataset.name,
        ...r.summary,
        questions: read.questions.length,
        skipped: read.skipped,
        settings: { ...settings, effective: r.effective },
        logprob: r.logprob,
        notes: r.notes,
        ...(semEce ? { semEce } : {}),
      },
      2,
    ),
  );
  return EXIT.ok;
}

/** The run the command makes: the dataset's questions asked of the one model, with the flags' settings. */
function mcSpec(a: Flags, settings: McSettings, dataset: Dataset, model: ModelSpec): RunSpec {
  return {
    title: `Multiple choice: ${a.model} on ${path.basename(dataset.name)}`,
    dataset: { name: path.basename(dataset.name), source: reportSource(a.dataset!), questions: dataset.questions },
    models: [model],
    sampling: { n: 1, temperature: settings.temperature, maxTokens: settings.maxTokens, prompt: '{question}', concurrency: settings.concurrency },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
    mc: { runs: settings.runs, seed: settings.seed, samples: settings.samples, logprobs: settings.logprobs },
  };
}

/** The --cache file, loaded: the replies an earlier run of the same command kept. */
async function openReplyCache(file: string | undefined, err: Say): Promise<JsonlSampleCache | undefined> {
  if (!file) return undefined;
  const samples = await new JsonlSampleCache(file).load();
  if (samples.damagedLines > 0) err(`${samples.path}: dropped ${samples.damagedLines} unreadable line(s) left by a write cut short; those replies are requested again.`);
  if (samples.size > 0) err(`${samples.size} reply(ies) already in ${samples.path}: only the missing ones are requested`);
  return samples;
}

/** The exit code of a run that did not finish, said on stderr. */
function stoppedExit(ended: RunRecord, cache: string | undefined, err: Say): ExitCode {
  // Only with --cache does a repeated command resume; without it a stop keeps nothing.
  const kept = cache ? { what: 'Replies', path: cache } : undefined;
  const e = ended.error;
  // A server that cannot be reached is not the user's input to fix: what arrived is kept and
  // the same command, once the server is back, carries on (exit 3, as in semece sample).
  if (e?.kind === UNREACHABLE_KIND && kept) {
    err(`semece mc: stopped: ${e.message.trim().replace(/\.$/, '')}. ${kept.what} so far are kept in ${kept.path}; run the same command again to resume.`);
    return EXIT.partial;
  }
  if (!e) {
    err(`semece mc: interrupted (${ended.status}).${kept ? ` ${kept.what} so far are kept in ${kept.path}; repeat the command to resume.` : ''}`);
    return EXIT.partial;
  }
  err(stoppedLine('mc', `${e.message} (${e.kind}, at ${e.where})`, kept));
  return EXIT.failed;
}

/** The per-run rows to --out; false once a failure to write is said (the rows printed instead). */
async function writeRunRows(a: Flags, rows: McRunResult['rows'], say: { out: Say; err: Say }): Promise<boolean> {
  const lines = rows.map((row) => json({ model: a.model, ...row })).join('\n') + '\n';
  try {
    await writeFileAtomic(a.out!, lines);
    return true;
  } catch (e) {
    say.err(`semece mc: cannot write ${a.out}: ${(e as Error).message}`);
    say.out(json({ rows }));
    return false;
  }
}

/** The Sem-ECE part of the summary (its rows to --sem-out): the signal comparison the score phase made once for the run's report, not a second bootstrap here. */
async function semEceSummary(a: Flags, settings: McSettings, s: McSemResult, report: ReportDocument) {
  if (a['sem-out']) {
    const lines = s.questions.map((q) => json({ ...q.clustered, grade: q.graded.grade, Y: q.graded.Y, signals: q.signals })).join('\n') + '\n';
    await writeFileAtomic(a['sem-out'], lines);
  }
  const comparison = report.models[0]?.metrics.comparison;
  return {
    samples: settings.samples,
    accuracy: s.accuracy,
    noOption: s.noOption,
    failedSamples: s.failedSamples,
    verdict: comparison ? summarizeComparison(comparison, SIGNAL_LABEL).headline : null,
    comparison: comparison ?? null,
    logprobAbsent: s.logprobAbsent,
  };
}

/** The run's report to --report, at the most detail the app opens; false once a failure to write is said. */
async function writeReport(file: string, doc: ReportDocument, err: Say): Promise<boolean> {
  // Raw replies, then samples, left out past MAX_REPORT_BYTES.
  const written = reportJsonFile(doc);
  if (!written.ok) {
    err(`semece mc: cannot write the report ${file}: ${written.error.message}`);
    return false;
  }
  if (written.value.leftOut !== 'nothing') err(`semece mc: the report ${file}: ${leftOutNote(written.value.leftOut)}`);
  try {
    await writeFileAtomic(file, written.value.text);
    return true;
  } catch (e) {
    err(`semece mc: cannot write the report ${file}: ${(e as Error).message}`);
    return false;
  }
}
