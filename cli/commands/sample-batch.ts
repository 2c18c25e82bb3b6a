/**
 * `semece sample --batch write|read|submit`: sampling through the providers' batch services.
 *
 *   --batch write  --out-requests FILE   writes the request JSONL (samples already cached are left
 *                                       out; more than one batch's worth is split into FILE.2.jsonl …)
 *   --batch read   --results FILE …      stores a downloaded result file (OpenAI output/error file,
 *                                       Anthropic results, Gemini responses) in OUT.cache.jsonl and,
 *                                       when every sample is there, writes the rows to --out
 *   --batch submit                       submits, polls with backoff, stores the results, re-requests
 *                                       what expired and retries failed requests interactively
 *                                       (--failed list: only list them)
 *
 * The cache is the one `semece sample` uses (OUT.cache.jsonl), keyed the same way, so interactive and
 * batch sampling mix and nothing is requested twice. Submitted batch ids are kept in
 * OUT.batches.json until collected: repeating an interrupted submit collects them instead of paying again.
 * With --adaptive (cli/adaptive-options.ts) each request file or submitted batch is one round of
 * the stopping rule: write, read, and write again until nothing is left to request (submit does
 * the rounds itself).
 * With --p-true, once every sample is stored, p(True) goes through the batch service too
 * (sample-batch-p-true.ts): write and read then carry p(True)'s requests and results, a round at a
 * time; submit submits its batches after the samples' (their ids kept in OUT.batches.json too).
 * Exit codes (cli/exit-codes.ts): 0 done, 3 samples still missing or interrupted (what arrived is
 * cached), 1 the batch run failed, 2 bad usage or input.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { batchServiceFor } from '../../src/batch/service-for-model.ts';
import { describeIngest, ingestSampleResults } from '../../src/batch/ingest.ts';
import { toJsonl } from '../../src/batch/jsonl.ts';
import { inParts } from '../../src/batch/split-by-limits.ts';
import { SampleRequestSet } from '../../src/batch/request-set.ts';
import { missingSamples, submitSampleBatches } from '../../src/batch/sample-batches.ts';
import { readDataset } from '../../src/formats/datasets.ts';
import { MemorySampleCache, type SampleCache } from '../../src/model/sample-cache.ts';
import { DEFAULT_GENERATION_PROMPT } from '../../src/pipeline/prompts.ts';
import { createProvider, getPreset, presetIds } from '../../src/providers/create-provider.ts';
import { baseUrlOption } from '../provider-options.ts';
import { JsonlSampleCache } from '../jsonl-sample-cache.ts';
import { envReplyScrubber, resolveIo, writeFileAtomic, writeLinesAtomic, type Io } from '../command-io.ts';
import { scrubbedSampleCache } from '../scrubbed-sample-cache.ts';
import { sampledRowLines } from '../sampled-rows.ts';
import { readProgress } from '../read-progress.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { ADAPTIVE_OPTIONS, adaptiveArgs } from '../adaptive-options.ts';
import { P_TRUE_DEFAULTS } from '../../src/model/run-spec.ts';
import { ingestPTrueResults, missingPTrue, type PTrueBatchResult, submitPTrueBatches } from '../../src/batch/p-true-batches.ts';
import { pTrueSpent, withStoredPTrue } from './sample-batch-p-true.ts';
import { pTrueSetForSamples } from '../../src/batch/p-true-request-set.ts';
import { pendingHooks } from '../../src/batch/pending-batches.ts';
import { BatchIdsFile } from '../batch-ids-file.ts';

export const USAGE = `usage: semece sample --batch write|read|submit --provider PRESET --model MODEL --dataset FILE [options]
  --batch write --out-requests FILE   write the batch request file (add --out FILE to leave out cached samples)
  --batch read --results FILE --out FILE   store a result file (repeat --results for output and error files)
  --batch submit --out FILE           submit to the provider's batch API, poll, store, write rows
  --failed interactive|list           failed requests: retry through the normal API (default) or list them
  --poll-interval MS                  first wait between status polls (default 5000, grows to 5 min)
  --base-url URL, --samples N, --temperature T, --top-p P, --max-tokens N, --prompt FILE, --concurrency N
  --adaptive [--first-round K] [--round-size K] [--max-selection K]   sample in rounds (as semece sample):
                                      each request file is the current round; read its results, then
                                      write again for the next, until nothing is left (submit loops)
  --p-true [--p-true-samples K] [--p-true-brainstorm]   once every sample is stored, p(True) per question
                                      through the batch service too: write/read carry its requests and
                                      results (one round, or two where no logprobs come back), submit loops
Batch services: OpenAI (openai preset), Anthropic, Gemini. Keys come from the preset's environment variable.
${EXIT_CODES_HELP}`;


function num(v: string | undefined, name: string, dflt: number, min: number, max: number, { whole = false }: { whole?: boolean } = {}): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) throw new Error(`--${name} must be a ${whole ? 'whole ' : ''}number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

/** Lines of a file, streamed: a result file of millions of replies is never read whole. */
function fileLines(path: string): { lines: AsyncIterable<string>; bytesRead: () => number } {
  const input = createReadStream(path, { encoding: 'utf8' });
  return { lines: createInterface({ input, crlfDelay: Infinity }), bytesRead: () => input.bytesRead };
}

type Say = (s: string) => void;
type BatchArgs = Exclude<ReturnType<typeof batchArgs>, 'help'>;

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err, env } = resolveIo(io);
  let parsed: ReturnType<typeof batchArgs>;
  try {
    parsed = batchArgs(argv);
  } catch (e) {
    err(`semece sample: ${(e as Error).message}\n${USAGE}`);
    return EXIT.badInput;
  }
  if (parsed === 'help') {
    out(USAGE);
    return EXIT.ok;
  }
  const o = parsed;
  const files = {
    outputs: [{ flag: '--out', file: o.out }, { flag: '--out-requests', file: o.outRequests }],
    inputs: [{ flag: '--dataset', file: o.dataset }, { flag: '--prompt', file: o.prompt }, ...o.results.map((file) => ({ flag: '--results', file }))],
  };
  return withOutputs('sample', files, err, () => batchCommand(o, io, { out, err, env }));
}

/** The flags read and checked; throws a usage error's message. */
function batchArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      batch: { type: 'string' }, provider: { type: 'string' }, model: { type: 'string' }, dataset: { type: 'string' }, out: { type: 'string' },
      'out-requests': { type: 'string' }, results: { type: 'string', multiple: true }, failed: { type: 'string' }, 'poll-interval': { type: 'string' },
      'base-url': { type: 'string' }, samples: { type: 'string' }, temperature: { type: 'string' }, 'top-p': { type: 'string' },
      'max-tokens': { type: 'string' }, concurrency: { type: 'string' }, timeout: { type: 'string' }, prompt: { type: 'string' }, help: { type: 'boolean' },
      ...ADAPTIVE_OPTIONS,
      'p-true': { type: 'boolean' }, 'p-true-samples': { type: 'string' }, 'p-true-brainstorm': { type: 'boolean' },
    },
  });
  if (values.help) return 'help' as const;
  if (!values['p-true'] && (values['p-true-samples'] !== undefined || values['p-true-brainstorm'])) throw new Error('--p-true-samples and --p-true-brainstorm need --p-true');
  const mode = values.batch;
  if (mode !== 'write' && mode !== 'read' && mode !== 'submit') throw new Error(`--batch must be write, read or submit (got ${JSON.stringify(mode)})`);
  for (const r of ['provider', 'model', 'dataset'] as const) if (!values[r]) throw new Error(`--${r} is required`);
  if (mode === 'write' && !values['out-requests']) throw new Error('--batch write needs --out-requests FILE');
  if (mode !== 'write' && !values.out) throw new Error(`--batch ${mode} needs --out FILE`);
  if (mode === 'read' && !values.results?.length) throw new Error('--batch read needs --results FILE');
  const preset = getPreset(values.provider!);
  if (!preset) throw new Error(`unknown provider "${values.provider}"; choose one of ${presetIds().join(', ')}`);
  const kind = preset.kind;
  if (kind === 'in-browser') throw new Error(`--provider ${preset.id} runs the model here and has no batch service: run semece sample without --batch`);
  if (values.failed && values.failed !== 'interactive' && values.failed !== 'list') throw new Error('--failed must be interactive or list');
  return {
    mode, preset, kind, model: values.model!, dataset: values.dataset!, out: values.out, outRequests: values['out-requests'], results: values.results ?? [],
    baseUrl: baseUrlOption(values['base-url'], preset), failed: values.failed ?? 'interactive', prompt: values.prompt,
    n: num(values.samples, 'samples', 50, 1, 9999, { whole: true }),
    adaptive: adaptiveArgs(values, num(values.samples, 'samples', 50, 1, 9999, { whole: true })),
    settings: { temperature: num(values.temperature, 'temperature', 1, 0, 2), topP: num(values['top-p'], 'top-p', 1, 0, 1), maxTokens: num(values['max-tokens'], 'max-tokens', 1024, 1, 1e6, { whole: true }) },
    pollMs: num(values['poll-interval'], 'poll-interval', 5000, 1, 3_600_000, { whole: true }),
    concurrency: num(values.concurrency, 'concurrency', 8, 1, 1000, { whole: true }),
    timeoutMs: num(values.timeout, 'timeout', 120_000, 1, 3_600_000, { whole: true }),
    pTrue: values['p-true'] ? { samples: num(values['p-true-samples'], 'p-true-samples', P_TRUE_DEFAULTS.samples, 1, 1000, { whole: true }), brainstorm: values['p-true-brainstorm'] ?? P_TRUE_DEFAULTS.brainstorm } : undefined,
  };
}

/** What every mode works on: the request set of the dataset's questions and the cache beside --out. */
interface Batch {
  set: SampleRequestSet;
  cache: SampleCache;
  model: { kind: BatchArgs['kind']; preset: string; baseUrl: string; model: string };
}

/** The command's phases: the prompt and the dataset read, the request set made and the cache opened, then the mode's own phase. */
async function batchCommand(o: BatchArgs, io: Io, say: { out: Say; err: Say; env: NodeJS.ProcessEnv }): Promise<number> {
  const { err, env } = say;
  let template = DEFAULT_GENERATION_PROMPT;
  let datasetText: Uint8Array;
  try {
    if (o.prompt) template = await readFile(o.prompt, 'utf8');
    datasetText = await readFile(o.dataset);
  } catch (e) {
    err(`semece sample: cannot read ${(e as NodeJS.ErrnoException).path ?? 'a file'}: ${(e as Error).message}`);
    return EXIT.badInput;
  }
  const read = readDataset(datasetText, o.dataset.split(/[\\/]/).pop() ?? o.dataset);
  if (!read.ok) {
    err(`semece sample: ${read.error.where ?? o.dataset}: ${read.error.message}`);
    return EXIT.badInput;
  }
  const model = { kind: o.kind, preset: o.preset.id, baseUrl: o.baseUrl, model: o.model };
  const made = await SampleRequestSet.create({ model, settings: o.settings, n: o.n, ...(o.adaptive ? { adaptive: o.adaptive } : {}), promptTemplate: template, questions: read.value.dataset.questions });
  if (!made.ok) {
    err(`semece sample: ${made.error.where ? `${made.error.where}: ` : ''}${made.error.message}`);
    return EXIT.badInput;
  }
  // Every sample a result file brings goes through the one key scrubber before it is stored,
  // and --out is written from these stored samples: no file written from a result holds a key.
  const stored: SampleCache = o.out ? await new JsonlSampleCache(`${o.out}.cache.jsonl`).load() : new MemorySampleCache();
  const batch: Batch = { set: made.value, cache: scrubbedSampleCache(stored, envReplyScrubber(env)), model };
  if (o.mode === 'write') return writeRequests(o, batch, say);
  if (o.mode === 'read') return readResults(o, batch, say);
  return submitBatches(o, batch, io, say);
}

/** --batch write: the requests for what is not cached, split by the service's limits into request files (with --p-true, p(True)'s once every sample is stored). */
async function writeRequests(o: BatchArgs, batch: Batch, { out, err }: { out: Say; err: Say }): Promise<number> {
  const { set, cache } = batch;
  const files = await writeParts(o.outRequests!, inParts(set.api, set.requests(cache)));
  if (files.length === 0 && o.pTrue) return writePTrueRequests(o, batch, { out, err });
  if (files.length === 0) err(set.rule ? 'nothing to request: the rule has stopped every question' : 'nothing to request: every sample is already cached');
  else if (set.rule) err(`adaptive: this is one round (${set.counts.stopped} of ${set.counts.questions} question(s) stopped); store its results with --batch read, then --batch write again for the next`);
  if (files.length > 0 && o.pTrue) err('p(True): its requests are written once every sample is stored: store these results with --batch read, then --batch write again');
  out(JSON.stringify({ files, requests: set.counts.requests, samples: set.counts.samples, cached: set.counts.cached, perRequest: set.perRequest, ...(set.rule ? { stopped: set.counts.stopped } : {}) }));
  return EXIT.ok;
}

/** Request files of the parts: FILE, then FILE.2.jsonl … */
async function writeParts(first: string, parts: AsyncIterable<{ line: Record<string, unknown> }[]>): Promise<string[]> {
  const files: string[] = [];
  for await (const part of parts) {
    const path = files.length === 0 ? first : first.replace(/(\.jsonl)?$/, `.${files.length + 1}.jsonl`);
    await writeFileAtomic(path, toJsonl(part.map((p) => p.line)));
    files.push(path);
  }
  return files;
}

/** --batch write --p-true, every sample stored: the current p(True) round's requests (reply 0 first; the sampled verdicts where no logprobs came back). */
async function writePTrueRequests(o: BatchArgs, batch: Batch, { out, err }: { out: Say; err: Say }): Promise<number> {
  const pSet = await pTrueSetForSamples(batch.set, o.pTrue!, batch.cache);
  const files = await writeParts(o.outRequests!, inParts(pSet.api, pSet.requests(batch.cache)));
  if (files.length === 0) err('nothing to request: every sample and every p(True) reply is already cached');
  else err(`p(True): ${pSet.counts.requests} request(s) of ${pSet.counts.questions} question(s) (${pSet.counts.cached} already answered); store the results with --batch read --p-true, then --batch write --p-true again until nothing is left`);
  out(JSON.stringify({ files, pTrue: { requests: pSet.counts.requests, questions: pSet.counts.questions, cached: pSet.counts.cached, perRequest: pSet.perRequest } }));
  return EXIT.ok;
}

/** --batch read: each result file streamed into the cache, then the rows written when every sample is there. */
async function readResults(o: BatchArgs, batch: Batch, say: { out: Say; err: Say }): Promise<number> {
  const { err } = say;
  const reports = [];
  // Once every sample is stored, a result file is p(True)'s (a sampling line in it is named as such).
  const pSet = o.pTrue && (await missingSamples(batch.set, batch.cache)) === 0 ? await pTrueSetForSamples(batch.set, o.pTrue, batch.cache) : undefined;
  for (const path of o.results) {
    if (!existsSync(path)) {
      err(`semece sample: cannot read ${path}: no such file`);
      return EXIT.badInput;
    }
    const { lines, bytesRead } = fileLines(path);
    const progress = readProgress(path, statSync(path).size);
    const report = pSet
      ? await ingestPTrueResults(pSet, lines, { file: path, cache: batch.cache, alreadyLines: true })
      : await ingestSampleResults(batch.set, lines, {
        file: path, cache: batch.cache, alreadyLines: true,
        onProgress: (p) => {
          const line = progress(bytesRead(), p);
          if (line) err(line);
        },
      });
    for (const line of describeIngest(report)) err(line);
    reports.push({ ...(pSet ? { pTrue: true } : {}), file: path, lines: report.lines, stored: report.stored, alreadyCached: report.alreadyCached, failed: report.failed.length, problems: report.problemCount });
  }
  return finish(o, batch, { read: reports }, say);
}

/**
 * --batch submit: the batches submitted (their ids kept in OUT.batches.json until collected, so an
 * interrupted submit collects them rather than pay again), polled, stored, the failures retried
 * interactively; then the rows written when every sample is there.
 */
async function submitBatches(o: BatchArgs, batch: Batch, io: Io, say: { out: Say; err: Say; env: NodeJS.ProcessEnv }): Promise<number> {
  const { out, err, env } = say;
  const { set, cache, model } = batch;
  const apiKey = (o.preset.keyEnv ? env[o.preset.keyEnv] : undefined) || env.SEMECE_API_KEY || undefined;
  if (o.preset.needsKey && !apiKey) {
    err(`semece sample: no key for ${o.preset.id}: set ${o.preset.keyEnv} (or SEMECE_API_KEY) in the environment.`);
    return EXIT.badInput;
  }
  // OUT.batches.json: ids submitted and not yet collected, collected first by the next submit (batch/pending-batches.ts, the app's rule too).
  const ledger = await BatchIdsFile.open(`${o.out}.batches.json`);
  const scope = { runId: o.out!, provider: model.preset, model: model.model };
  const hooks = await pendingHooks(ledger, { ...scope, kind: 'samples' });
  if (hooks.pendingIds.length > 0) err(`collecting ${hooks.pendingIds.length} batch(es) submitted earlier: ${hooks.pendingIds.join(', ')}`);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  io.signal?.addEventListener('abort', onSigint, { once: true });
  const result = await submitSampleBatches({
    set, cache, service: batchServiceFor(model, apiKey), signal: controller.signal, ...hooks,
    poll: { intervalMs: o.pollMs },
    interactive: o.failed === 'interactive' ? { provider: createProvider({ ...model, apiKey, concurrency: o.concurrency, timeoutMs: o.timeoutMs }), concurrency: o.concurrency } : undefined,
    onEvent: (e) => {
      if (e.type === 'submitted') err(`submitted batch ${e.status.id} (${e.requests} request(s))`);
      else if (e.type === 'status') err(`batch ${e.status.id}: ${e.status.raw} (${e.status.counts.succeeded} succeeded, ${e.status.counts.failed} failed of ${e.status.counts.total})`);
      else if (e.type === 'ingested') for (const line of describeIngest(e.report)) err(line);
      else if (e.type === 'interactive') err(`${e.missing} sample(s) missing after the batches: requesting them interactively`);
    },
  });
  let pTrue: PTrueBatchResult | undefined;
  if (o.pTrue && (result.state === 'done' || result.state === 'incomplete') && result.missing === 0 && !controller.signal.aborted) {
    const pSet = await pTrueSetForSamples(set, o.pTrue, cache);
    // p(True)'s batches apart: their results are read as p(True) replies, not samples.
    const pHooks = await pendingHooks(ledger, { ...scope, kind: 'p-true' });
    if (pHooks.pendingIds.length > 0) err(`collecting ${pHooks.pendingIds.length} p(True) batch(es) submitted earlier: ${pHooks.pendingIds.join(', ')}`);
    pTrue = await submitPTrueBatches({
      set: pSet, cache, service: batchServiceFor(model, apiKey), signal: controller.signal, ...pHooks,
      poll: { intervalMs: o.pollMs },
      onEvent: (e) => {
        if (e.type === 'round') err(`p(True) round ${e.round}`);
        else if (e.type === 'submitted') err(`submitted p(True) batch ${e.status.id} (${e.requests} request(s))`);
        else if (e.type === 'status') err(`p(True) batch ${e.status.id}: ${e.status.raw} (${e.status.counts.succeeded} succeeded, ${e.status.counts.failed} failed of ${e.status.counts.total})`);
        else for (const line of describeIngest(e.report)) err(line);
      },
    });
    if (pTrue.error) err(`semece sample: p(True): ${pTrue.error.message}`);
  }
  process.removeListener('SIGINT', onSigint);
  for (const f of result.failed.slice(0, 20)) err(`failed: question ${f.questionId} samples ${f.indices[0]}..${f.indices.at(-1)}: ${f.code}: ${f.message}`);
  if (result.failed.length > 20) err(`… and ${result.failed.length - 20} more failed request(s)`);
  if (result.error) err(`semece sample: ${result.error.message}`);
  const pTrueSummary = pTrue ? { pTrue: { batches: pTrue.batches, state: pTrue.state, ...pTrueSpent(model, pTrue.usage) } } : {};
  const summary = { batches: result.batches, failedInBatch: result.failedInBatch, expiredInBatch: result.expiredInBatch, listedFailures: result.failed.length, state: result.state, ...pTrueSummary };
  if (result.state === 'failed' || result.state === 'cancelled') {
    out(JSON.stringify({ ...summary, missing: result.missing }));
    return result.state === 'failed' ? EXIT.failed : EXIT.partial;
  }
  if (pTrue?.state === 'failed' || pTrue?.state === 'cancelled') {
    out(JSON.stringify({ ...summary, missing: 0, pTrueMissing: pTrue.missing }));
    return pTrue.state === 'failed' ? EXIT.failed : EXIT.partial;
  }
  return finish(o, batch, summary, say);
}

/** The rows to --out once every sample is stored; otherwise how many are missing (exit 3). */
async function finish(o: BatchArgs, { set, cache, model }: Batch, summary: Record<string, unknown>, { out, err }: { out: Say; err: Say }): Promise<number> {
  const missing = await missingSamples(set, cache);
  if (missing > 0) {
    err(
      set.rule
        ? `semece sample: ${missing} sample(s) of the current round still to request; stored samples are kept in ${o.out}.cache.jsonl (--batch write again for the next round, or sample the rest interactively with semece sample --adaptive).`
        : `semece sample: ${missing} sample(s) still missing; stored samples are kept in ${o.out}.cache.jsonl (run again, or sample the rest interactively with semece sample).`,
    );
    out(JSON.stringify({ ...summary, missing }));
    return EXIT.partial;
  }
  if (o.pTrue) {
    const pSet = await pTrueSetForSamples(set, o.pTrue, cache);
    const pMissing = await missingPTrue(pSet, cache);
    if (pMissing > 0) {
      err(`semece sample: p(True): ${pMissing} request(s) still to make (every sample is stored); the replies so far are kept in ${o.out}.cache.jsonl (--batch write --p-true for the next round, --batch submit --p-true, or semece sample --p-true to ask them directly).`);
      out(JSON.stringify({ ...summary, missing: 0, pTrueMissing: pMissing }));
      return EXIT.partial;
    }
    const methods = { logprobs: 0, sampled: 0, none: 0 };
    await writeLinesAtomic(o.out!, withStoredPTrue(sampledRowLines(set, cache, o.model), model, o.pTrue, cache, methods));
    const pTrue = { ...((summary.pTrue as object | undefined) ?? {}), methods };
    out(JSON.stringify({ ...summary, pTrue, out: o.out, questions: set.questions.length, missing: 0 }));
    return EXIT.ok;
  }
  await writeLinesAtomic(o.out!, sampledRowLines(set, cache, o.model));
  out(JSON.stringify({ ...summary, out: o.out, questions: set.questions.length, missing: 0 }));
  return EXIT.ok;
}
