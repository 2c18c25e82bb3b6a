/**
 * `semece sample`: n samples per question from one model, written as the authors' sampled rows
 * (id, question, gold_answer, [gold_answer_aliases], model, n_samples, results, answer_extracted,
 * confidence_verbalized), one JSONL row per question. Every sample is appended to FILE.cache.jsonl
 * beside --out as it arrives, so repeating the same command resumes instead of starting over.
 *
 * The key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY,
 * never from the command line; it is never printed or written. `--provider in-browser` needs no
 * key and no server: the model runs in this process (cli/in-browser-provider.ts). `--adaptive`
 * samples each question in rounds and stops it by the rule (core/adaptive-rule.ts): --samples is
 * then the most a question gets, and each row says its selection block (selection_samples).
 * Exit codes (cli/exit-codes.ts):
 * 0 done, 1 a provider or cache error stopped the run, 3 interrupted, the server could not be
 * reached, or some questions still miss samples (what arrived is cached: repeat the command to
 * resume), 2 bad usage or input.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { costOf, DEFAULT_PRICES, priceFor, type Price } from '../../src/model/cost.ts';
import { DEFAULT_GENERATION_PROMPT, validatePromptTemplate } from '../../src/pipeline/prompts.ts';
import { JsonlSampleCache } from '../jsonl-sample-cache.ts';
import { readSamples, runSampling, type SamplingResult } from '../../src/pipeline/sampling.ts';
import { UNREACHABLE_KIND } from '../../src/pipeline/unreachable.ts';
import type { ProgressCounters } from '../../src/model/run-spec.ts';
import type { Question, Sample, SampledRow } from '../../src/model/rows.ts';
import type { SamplingProvider } from '../../src/model/provider.ts';
import { createProvider, getPreset, presetIds } from '../../src/providers/create-provider.ts';
import type { Preset } from '../../src/providers/presets.ts';
import { baseUrlOption } from '../provider-options.ts';
import { resolveIo, writeFileAtomic, type Io } from '../command-io.ts';
import { EXIT, EXIT_CODES_HELP, type ExitCode } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { stoppedLine } from '../provider-stop.ts';
import { HUB_PREFIX, readDatasetSource } from '../dataset-source.ts';
import { describeSubset } from '../../src/formats/datasets/subset-description.ts';
import { inBrowserSamplingProvider, IN_BROWSER_HELP, type LocalModelOptions } from '../in-browser-provider.ts';
import { ADAPTIVE_HELP, ADAPTIVE_OPTIONS, adaptiveArgs, adaptiveSummary } from '../adaptive-options.ts';
import type { AdaptiveSettings } from '../../src/model/run-spec.ts';
import { addPTrue } from '../../src/pipeline/p-true.ts';
import { rowSequenceLogprobs } from '../../src/pipeline/sequence-logprob.ts';
import { P_TRUE_DEFAULTS, type PTrueSpec } from '../../src/model/run-spec.ts';

export const USAGE = `usage: semece sample --provider PRESET --model MODEL --dataset FILE|hub:OWNER/NAME[:SPLIT] --out FILE [options]
  --dataset hub:…      a Hugging Face hub dataset (hub:OWNER/NAME, :SPLIT or :CONFIG/SPLIT), e.g.
                       hub:basicv8vc/SimpleQA, hub:akariasai/PopQA, hub:mandarjoshi/trivia_qa,
                       hub:google-research-datasets/nq_open, hub:cais/hle (gated: set HF_TOKEN);
                       files are kept in $SEMECE_HUB_CACHE (default ~/.cache/semece/hub), the hub
                       address is $HF_ENDPOINT (default https://huggingface.co)
  --limit N            ask N questions drawn with --seed (by category where there are categories)
  --seed S             the draw's seed (default 0; numpy's default_rng(S).permutation order)
  --base-url URL       API base URL (default: the preset's)
  --samples N          samples per question (default 50; with --adaptive, the most a question gets)
${ADAPTIVE_HELP}
  --temperature T      sampling temperature (default 1)
  --top-p P            nucleus sampling (default 1: off)
  --max-tokens N       reply length limit (default 1024)
  --concurrency N      requests in flight (default 8)
  --timeout MS         per-request timeout (default 120000)
  --prompt FILE        generation prompt template containing {question}
  --batch MODE         write|read|submit through the provider's batch service (see --batch write --help)
  --logprobs           ask for token log-probabilities where the provider returns them: each row
                       gets sequence_logprobs (one per sample, each the sum over its tokens) when
                       every sample has one, for the likelihood-weighted semantic entropy
  --p-true             after sampling, ask p(True) once per question (Kadavath et al. 2022): "is the
                       proposed (most frequent) answer true?"; written as p_true (a probability) and
                       p_true_method (logprobs, or sampled: the share of True among the replies);
                       the summary's requests, tokens and cost include its requests (pTrue: its part)
  --p-true-samples K   replies asked when the provider returns no logprobs (default 10)
  --p-true-brainstorm  show the other sampled answers as brainstormed ideas (p_true_sampling)
${IN_BROWSER_HELP}
Presets: ${presetIds().join(', ')}.
The key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY.
Samples are cached in OUT.cache.jsonl; repeat the same command to resume.
${EXIT_CODES_HELP}`;

function intArg(v: string | undefined, name: string, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}

function numArg(v: string | undefined, name: string, dflt: number, max: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > max) throw new Error(`--${name} must be a number from 0 to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

/** The counters the progress panel draws too, as one line. */
function progressLine(p: ProgressCounters): string {
  const eta = p.etaMs === null ? '' : `, about ${Math.ceil(p.etaMs / 1000)} s left`;
  const cost = p.cost === null ? '' : `, $${p.cost.toFixed(4)}`;
  return `samples ${p.samples.done}/${p.samples.upTo ? 'at most ' : ''}${p.samples.total} (requests ${p.requests.done} done, ${p.requests.failed} failed, ${p.requests.retrying} retrying; tokens ${p.tokens.input} in / ${p.tokens.output} out${cost}${eta})`;
}


/** The command's settings, as read from its flags. */
interface SampleArgs {
  preset: Preset;
  model: string;
  dataset: string;
  out: string;
  baseUrl: string;
  local: LocalModelOptions;
  n: number;
  settings: { temperature: number; topP: number; maxTokens: number; logprobs?: boolean };
  concurrency: number;
  timeoutMs: number;
  promptFile: string | undefined;
  limit: number | undefined;
  seed: number;
  /** --adaptive: the stopping rule's settings (n is its maximum); undefined: every question gets n. */
  adaptive: AdaptiveSettings | undefined;
  /** p(True) after sampling (--p-true); undefined: not asked. */
  pTrue: PTrueSpec | undefined;
}

type Say = (s: string) => void;

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err, env } = resolveIo(io);
  // Batch mode (write/read/submit through the providers' batch services) lives in its own module.
  if (argv.some((a) => a === '--batch' || a.startsWith('--batch='))) return (await import('./sample-batch.ts')).default(argv, io);
  let opts: SampleArgs | 'help';
  try {
    opts = sampleArgs(argv);
  } catch (e) {
    err(`semece sample: ${(e as Error).message}\n${USAGE}`);
    return EXIT.badInput;
  }
  if (opts === 'help') {
    out(USAGE);
    return EXIT.ok;
  }
  const apiKey = (opts.preset.keyEnv ? env[opts.preset.keyEnv] : undefined) || env.SEMECE_API_KEY || undefined;
  if (opts.preset.needsKey && !apiKey) {
    err(`semece sample: no key for ${opts.preset.id}: set ${opts.preset.keyEnv} (or SEMECE_API_KEY) in the environment.`);
    return EXIT.badInput;
  }
  const args = opts;
  const files = { outputs: [{ flag: '--out', file: args.out }], inputs: [{ flag: '--dataset', file: args.dataset.startsWith(HUB_PREFIX) ? undefined : args.dataset }, { flag: '--prompt', file: args.promptFile }] };
  return withOutputs('sample', files, err, () => sampleCommand(args, apiKey, io, out, err, env));
}

/** The flags read and checked; throws a usage error's message. */
function sampleArgs(argv: string[]): SampleArgs | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      provider: { type: 'string' }, model: { type: 'string' }, dataset: { type: 'string' }, out: { type: 'string' },
      'base-url': { type: 'string' }, samples: { type: 'string' }, temperature: { type: 'string' }, 'top-p': { type: 'string' },
      'max-tokens': { type: 'string' }, concurrency: { type: 'string' }, timeout: { type: 'string' }, prompt: { type: 'string' },
      limit: { type: 'string' }, seed: { type: 'string' },
      ...ADAPTIVE_OPTIONS,
      'model-dir': { type: 'string' }, 'allow-remote-models': { type: 'boolean' }, 'sampling-seed': { type: 'string' },
      'p-true': { type: 'boolean' }, logprobs: { type: 'boolean' }, 'p-true-samples': { type: 'string' }, 'p-true-brainstorm': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  for (const required of ['provider', 'model', 'dataset', 'out'] as const) {
    if (!values[required]) throw new Error(`--${required} is required`);
  }
  const preset = getPreset(values.provider!);
  if (!preset) throw new Error(`unknown provider "${values.provider}"; choose one of ${presetIds().join(', ')}`);
  const inBrowser = preset.kind === 'in-browser';
  if (!values['p-true'] && (values['p-true-samples'] !== undefined || values['p-true-brainstorm'])) throw new Error('--p-true-samples and --p-true-brainstorm need --p-true');
  if (!inBrowser && (values['model-dir'] !== undefined || values['allow-remote-models'] || values['sampling-seed'] !== undefined)) {
    throw new Error(`--model-dir, --allow-remote-models and --sampling-seed are for --provider ${'in-browser'} only`);
  }
  return {
    preset, model: values.model!, dataset: values.dataset!, out: values.out!,
    // The in-browser model has no address: it runs in this process.
    baseUrl: inBrowser ? '' : baseUrlOption(values['base-url'], preset),
    local: { modelDir: values['model-dir'], allowRemote: values['allow-remote-models'] ?? false, seed: values['sampling-seed'] === undefined ? undefined : intArg(values['sampling-seed'], 'sampling-seed', 0, 0) },
    n: intArg(values.samples, 'samples', 50, 1),
    // --logprobs only where given: without it the samples' cache keys are those they always were.
    settings: { temperature: numArg(values.temperature, 'temperature', 1, 2), topP: numArg(values['top-p'], 'top-p', 1, 1), maxTokens: intArg(values['max-tokens'], 'max-tokens', 1024, 1), ...(values.logprobs ? { logprobs: true } : {}) },
    concurrency: intArg(values.concurrency, 'concurrency', 8, 1),
    timeoutMs: intArg(values.timeout, 'timeout', 120_000, 1),
    promptFile: values.prompt,
    limit: values.limit === undefined ? undefined : intArg(values.limit, 'limit', 0, 1),
    seed: intArg(values.seed, 'seed', 0, 0),
    adaptive: adaptiveArgs(values, intArg(values.samples, 'samples', 50, 1)),
    pTrue: values['p-true']
      ? { samples: intArg(values['p-true-samples'], 'p-true-samples', P_TRUE_DEFAULTS.samples, 1), brainstorm: values['p-true-brainstorm'] ?? P_TRUE_DEFAULTS.brainstorm }
      : undefined,
  };
}

/**
 * The command's phases: the prompt and the dataset read, the cache file opened, every question
 * sampled (the app's sampling loop, pipeline/sampling.ts, over the cache file), then the rows of
 * the complete questions written and the summary printed.
 */
async function sampleCommand(opts: SampleArgs, apiKey: string | undefined, io: Io, out: Say, err: Say, env: Record<string, string | undefined>): Promise<number> {
  const template = await promptTemplate(opts, err);
  if (template === undefined) return EXIT.badInput;
  const questions = await datasetQuestions(opts, env, err);
  if (!questions) return EXIT.badInput;
  const cache = await openSampleCache(opts.out, err);
  const { result, provider } = await samplePhase(opts, apiKey, io, err, { questions, template, cache });
  const unfinished = unfinishedExit(result, questions, cache.path, err);
  if (unfinished !== undefined) return unfinished;
  return writePhase(opts, out, err, { questions, template, cache, provider, result });
}

/** The generation prompt (--prompt, or the default), checked; undefined once its problem is said. */
async function promptTemplate(opts: SampleArgs, err: Say): Promise<string | undefined> {
  let template = DEFAULT_GENERATION_PROMPT;
  try {
    if (opts.promptFile) template = await readFile(opts.promptFile, 'utf8');
  } catch (e) {
    err(`semece sample: cannot read ${(e as NodeJS.ErrnoException).path ?? 'a file'}: ${(e as Error).message}`);
    return undefined;
  }
  const checked = validatePromptTemplate(template);
  if (!checked.ok) {
    err(`semece sample: ${opts.promptFile}: ${checked.error.message}`);
    return undefined;
  }
  return template;
}

/** The dataset's questions (a file or a hub dataset, drawn by --limit and --seed); undefined once its problem is said. */
async function datasetQuestions(opts: SampleArgs, env: Record<string, string | undefined>, err: Say): Promise<Question[] | undefined> {
  const read = await readDatasetSource(opts.dataset, { env, log: err, limit: opts.limit, seed: opts.seed });
  if (!read.ok) {
    err(`semece sample: ${read.error.where ?? opts.dataset}: ${read.error.message}`);
    return undefined;
  }
  if (read.value.dataset.subset) err(`asking ${describeSubset(read.value.dataset.subset)}`);
  for (const s of read.value.skipped.slice(0, 5)) err(`skipped ${s.where}: ${s.reason}`);
  if (read.value.skipped.length > 5) err(`… and ${read.value.skipped.length - 5} more rows skipped`);
  return read.value.dataset.questions;
}

/** The cache file beside --out, loaded: what an earlier run of the same command kept. */
async function openSampleCache(outFile: string, err: Say): Promise<JsonlSampleCache> {
  const cache = await new JsonlSampleCache(`${outFile}.cache.jsonl`).load();
  if (cache.damagedLines > 0) err(`${cache.path}: dropped ${cache.damagedLines} unreadable line(s) left by a write cut short; those samples are requested again.`);
  if (cache.size > 0) err(`resuming: ${cache.size} sample(s) already in ${cache.path}`);
  return cache;
}

interface SampleInputs {
  questions: Question[];
  template: string;
  cache: JsonlSampleCache;
}

/** Every question sampled through the sampling loop, progress on stderr every 2 s; Ctrl-C stops it with what arrived kept. */
async function samplePhase(opts: SampleArgs, apiKey: string | undefined, io: Io, err: Say, { questions, template, cache }: SampleInputs) {
  const config = { kind: opts.preset.kind, preset: opts.preset.id, baseUrl: opts.baseUrl, model: opts.model, apiKey, concurrency: opts.concurrency, timeoutMs: opts.timeoutMs };
  const local = opts.preset.kind === 'in-browser' ? inBrowserSamplingProvider(config, opts.local, err) : undefined;
  const provider = local?.provider ?? createProvider(config, io.providerDeps);
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  io.signal?.addEventListener('abort', onSigint, { once: true });
  let lastPrinted = 0;
  const result = await runSampling({
    questions, provider, settings: opts.settings, n: opts.n, promptTemplate: template, cache, signal: interrupt.signal,
    ...(opts.adaptive ? { adaptive: opts.adaptive } : {}),
    price: priceFor(DEFAULT_PRICES, opts.preset.id, opts.model),
    progressIntervalMs: 250,
    onProgress: (p) => {
      if (Date.now() - lastPrinted >= 2000) {
        lastPrinted = Date.now();
        err(progressLine(p));
      }
    },
  });
  process.removeListener('SIGINT', onSigint);
  await local?.dispose();
  err(progressLine(result.progress));
  for (const note of result.notes) err(`note: ${note}`);
  return { result, provider };
}


/**
 * The exit code of a run that writes nothing, said on stderr; undefined when --out is written.
 * Questions short of samples (refused by the provider, or failing again and again) are listed
 * and left out of --out; the rest is written. Only when none is complete is nothing written.
 */
function unfinishedExit(result: SamplingResult, questions: Question[], cachePath: string, err: Say): ExitCode | undefined {
  const failedIds = new Set(result.incomplete.map((x) => x.questionId));
  const someComplete = failedIds.size < new Set(questions.map((q) => q.id)).size;
  if (result.state === 'done' || (result.state === 'incomplete' && someComplete)) return undefined;
  const why =
    result.state === 'cancelled' ? 'interrupted'
    : `${result.incomplete.length} question(s) still miss samples${result.incomplete.every((x) => x.refused) ? ' (refused by the provider)' : ' after repeated failures'}${result.incomplete[0]?.error ? ` (${result.incomplete[0].error.message})` : ''}`;
  // A server that cannot be reached is not the user's input to fix: what arrived is kept and
  // the same command, once the server is back, carries on (exit 3, like an interruption).
  if (result.state === 'stopped' && result.error?.kind === UNREACHABLE_KIND) {
    err(`semece sample: stopped: ${result.error.message.trim().replace(/\.$/, '')}. Samples so far are kept in ${cachePath}; run the same command again to resume.`);
    return EXIT.partial;
  }
  err(
    result.state === 'stopped'
      ? stoppedLine('sample', result.error?.message ?? 'unknown reason', { what: 'Samples', path: cachePath })
      : `semece sample: ${why}. Samples so far are kept in ${cachePath}; repeat the command to resume.`,
  );
  // A provider or cache error needs the user to act; an interruption or questions still short
  // of samples kept what they had, and repeating the command finishes them.
  return result.state === 'stopped' ? EXIT.failed : EXIT.partial;
}

/** The complete questions' rows read back from the cache and written to --out, the summary printed. */
async function writePhase(opts: SampleArgs, out: Say, err: Say, { questions, template, cache, provider, result }: SampleInputs & { provider: SamplingProvider; result: SamplingResult }): Promise<number> {
  const failedIds = new Set(result.incomplete.map((x) => x.questionId));
  const failed = result.incomplete.map((x) => ({ id: x.questionId, reason: `${x.refused ? 'refused by the provider' : `${x.missing} sample(s) missing after repeated failures`}${x.error ? `: ${x.error.message}` : ''}` }));
  for (const f of failed.slice(0, 20)) err(`semece sample: question ${f.id} left out: ${f.reason}`);
  if (failed.length > 20) err(`semece sample: … and ${failed.length - 20} more questions left out`);
  const complete = questions.filter((q) => !failedIds.has(q.id));
  // The key bases runSampling computed spare a digest per question on the read back.
  const stored = await readSamples({ questions: complete, provider, settings: opts.settings, n: opts.n, promptTemplate: template, cache, keyBases: result.keyBases });
  const rows: SampledRow[] = complete.map((q, i) => {
    const plan = result.adaptive?.get(q.id);
    // An adaptive question's samples are its first slots (later ones, cached by a fixed-n run, are not its own).
    const samples = (plan ? stored[i].slice(0, plan.samples) : stored[i]) as Sample[];
    return {
      id: q.id, question: q.question, gold_answer: q.answer,
      ...(q.aliases ? { gold_answer_aliases: q.aliases } : {}),
      model: opts.model, n_samples: samples.length, ...(plan ? { selection_samples: plan.selection } : {}),
      results: samples.map((s) => s.raw), answer_extracted: samples.map((s) => s.answer), confidence_verbalized: samples.map((s) => s.confidence),
      ...sequenceLogprobsOf(samples),
    };
  });
  const price = priceFor(DEFAULT_PRICES, opts.preset.id, opts.model);
  const pTrue = opts.pTrue ? await pTruePhase(opts.pTrue, rows, provider, cache, err, price) : undefined;
  // What this command sent and spent: the samples' requests and p(True)'s (pTrue says its own part).
  const spent = pTrue ? withPTrueSpent(result.progress, pTrue.summary, price) : result.progress;
  // Written whole then renamed, so a reader never sees half a file.
  await writeFileAtomic(opts.out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  out(JSON.stringify({
    out: opts.out, questions: rows.length, samplesPerQuestion: opts.n, ...(opts.adaptive ? { adaptive: adaptiveSummary(opts.adaptive, rows, opts.n) } : {}), fetched: result.progress.samples.done - result.progress.samples.cached,
    fromCache: result.progress.samples.cached, requests: spent.requests, tokens: spent.tokens, cost: spent.cost,
    effective: result.effective, notes: result.notes, ...(failed.length > 0 ? { failed } : {}), ...(pTrue ? { pTrue: pTrue.summary } : {}),
  }));
  if (pTrue?.fatal) return EXIT.failed;
  if (failed.length > 0 || (pTrue && pTrue.summary.failed.length > 0)) {
    err(`semece sample: wrote ${rows.length} of ${questions.length} questions to ${opts.out}; repeat the command to ask for the ${failed.length} left out again (a refused question is refused again unless the prompt or the provider's policy changed).`);
    return EXIT.partial;
  }
  return EXIT.ok;
}

/**
 * p(True) of every written row (--p-true): one request per question (more where the provider
 * returns no logprobs), cached in the same file as the samples under keys of their own, so a
 * repeat pays nothing. Each row gets p_true and p_true_method; a question whose request failed
 * gets neither and is listed (repeat the command to ask again).
 */
async function pTruePhase(spec: PTrueSpec, rows: SampledRow[], provider: SamplingProvider, cache: JsonlSampleCache, err: Say, price: Price | null) {
  let lastPrinted = Date.now();
  const summary = await addPTrue(rows, {
    provider, cache, spec,
    onDone: (done) => {
      if (Date.now() - lastPrinted < 2000) return;
      lastPrinted = Date.now();
      err(`p(True) ${done}/${rows.length}`);
    },
  });
  if (summary.fatal) err(`semece sample: p(True) stopped: ${summary.fatal.message}`);
  for (const f of summary.failed.slice(0, 20)) err(`semece sample: p(True) of question ${f.id} not asked: ${f.reason}`);
  const { fatal, ...printed } = summary;
  return { fatal, summary: { ...printed, cost: costOf(summary.tokens, price) } };
}

/** The sampling's counters with p(True)'s requests, failed requests, tokens and their cost added. */
function withPTrueSpent(sampled: ProgressCounters, p: { requests: number; failedRequests: number; tokens: { input: number; output: number } }, price: Price | null) {
  const tokens = { input: sampled.tokens.input + p.tokens.input, output: sampled.tokens.output + p.tokens.output };
  return { requests: { ...sampled.requests, done: sampled.requests.done + p.requests, failed: sampled.requests.failed + p.failedRequests }, tokens, cost: costOf(tokens, price) };
}

/** A row's sequence_logprobs where every sample has one (--logprobs and a provider that returns them). */
function sequenceLogprobsOf(samples: readonly Sample[]): { sequence_logprobs?: number[] } {
  const lp = rowSequenceLogprobs(samples);
  return lp ? { sequence_logprobs: lp } : {};
}
