/**
 * What the batch worker serves (batch.worker.ts): batch mode for a run in the browser (src/batch/),
 * over the same IndexedDB sample cache the run worker uses. Every method answers once, with a value
 * ({ok: false, error} for expected failures, a throw keeping its detail through the one worker
 * protocol, worker-connection.ts); progress comes through the callback passed in. Plain functions
 * over the stores they are given, so tests call them directly over fake-indexeddb.
 *
 * Every batch submitted is recorded with its run (store/pending-batches.ts) before the wait starts
 * and cleared once its results are stored (batch/pending-batches.ts): a tab closed while a batch is
 * with the provider finds it again, and `resume` collects it without submitting anything. A submit
 * while one is recorded collects it first, saying so, instead of paying for its requests twice.
 * Only batch ids are stored; the key lives in the page's memory and comes with each call.
 */
import type { RunSpec } from '../model/run-spec.ts';
import type { Result, StageError } from '../model/rows.ts';
import type { PendingBatch } from '../model/pending-batch.ts';
import { createProvider } from '../providers/create-provider.ts';
import { ProviderError } from '../providers/errors.ts';
import type { Stores } from '../store/stores.ts';
import { batchServiceFor } from '../batch/service-for-model.ts';
import { describeIngest, ingestSampleResults } from '../batch/ingest.ts';
import { toJsonl } from '../batch/jsonl.ts';
import { inParts } from '../batch/split-by-limits.ts';
import { requestSetForRun } from '../batch/run-request-set.ts';
import { type BatchEvent, submitSampleBatches } from '../batch/sample-batches.ts';
import { pTrueSetForSamples } from '../batch/p-true-request-set.ts';
import { ingestPTrueResults, type PTrueBatchEvent, submitPTrueBatches } from '../batch/p-true-batches.ts';
import { missingSamples } from '../batch/sample-batches.ts';
import { pendingHooks, type PendingScope } from '../batch/pending-batches.ts';
import type { PollOptions } from '../batch/poll.ts';
import { modelLabel } from '../model/run-spec.ts';
import type { SampleRequestSet } from '../batch/request-set.ts';
import type { SampleCache } from '../model/sample-cache.ts';
import { type JudgeStoreReport, planRunJudge, storeRunJudgeResults, submitRunJudge } from '../batch/judge-run.ts';
import { errorInfo } from '../model/app-error.ts';
import { scrubbedError, secretScrubber } from '../providers/secret-scrub.ts';
import type { Progress } from '../model/progress.ts';

/** The model's one progress shape: the phase, bytes read of a result file, and the batch's own words. */
export type BatchProgress = Progress<'reading' | 'submitting' | 'judging'> & { text: string };

export interface RequestFiles {
  files: { name: string; blob: Blob; requests: number }[];
  counts: { samples: number; cached: number; requests: number };
  /** p(True)'s round, when the run asks for it and every sample is stored (the files are then its requests). */
  pTrue?: { questions: number; cached: number; requests: number };
}

export interface ReadSummary {
  lines: string[];
  stored: number;
  failed: number;
  problems: number;
}

export interface SubmitSummary {
  state: string;
  lines: string[];
  missing: number;
}

/** A sample batch's submission: the key, and whether what the batch leaves unanswered is asked interactively. */
export interface BatchSubmitOptions {
  apiKey?: string;
  retryInteractively: boolean;
}

/**
 * Each method names a stored run by its id and reads the run's spec here: a run of 40,000
 * questions posted from the page would structured-clone every question on the page's main
 * thread (85–161 ms, run-spec-transfer.ts), and the page never needs the questions itself.
 */
export interface BatchWorkerApi {
  requestFiles(runId: string, modelIndex: number): Promise<Result<RequestFiles>>;
  readResults(runId: string, modelIndex: number, files: File[], onProgress?: (p: BatchProgress) => void): Promise<Result<ReadSummary>>;
  submit(runId: string, modelIndex: number, options: BatchSubmitOptions, onProgress?: (p: BatchProgress) => void): Promise<Result<SubmitSummary>>;
  /** The judge clustering stage: request file, result files, or submit and wait (judge runs only). */
  judgeRequestFiles(runId: string): Promise<Result<RequestFiles>>;
  readJudgeResults(runId: string, files: File[]): Promise<Result<ReadSummary>>;
  submitJudge(runId: string, apiKey: string | undefined, onProgress?: (p: BatchProgress) => void): Promise<Result<SubmitSummary>>;
  /** The run's batches submitted and not yet collected (a tab closed while they were with the provider). */
  pendingBatches(runId: string): Promise<Result<PendingBatch[]>>;
  /** Polls and collects every pending batch of the run, submitting nothing; keys by provider preset (kept in the page's memory only). */
  resume(runId: string, apiKeys: Partial<Record<string, string>>, onProgress?: (p: BatchProgress) => void): Promise<Result<SubmitSummary>>;
  /** Forgets a pending batch (the provider may still run it and charge for it). */
  forget(runId: string, batchId: string): Promise<Result<void>>;
  /** Stops the wait in progress, if any: what was submitted stays recorded, to resume later. */
  stopWaiting(): Promise<void>;
}

/** What the API runs over: the stores, and how often it polls (tests poll at once). */
export interface BatchApiDeps {
  stores: () => Promise<Stores>;
  poll?: Omit<PollOptions, 'signal' | 'onStatus'>;
  now?: () => Date;
}

function judgeLines(r: JudgeStoreReport, name: string): string[] {
  return [`${name}: ${r.stored} question(s) grouped, ${r.failed} left for the interactive judge, ${r.problems.length} problem line(s)`, ...r.problems.slice(0, 20).map((p) => `  ${p.file}:${p.line}: ${p.message}`)];
}

/** A failure as a value, with its kind, status and retryability where the error has them ('batch' otherwise), every key given scrubbed from it. */
function fail(e: unknown, where: string, apiKeys: (string | undefined)[] = []): { ok: false; error: StageError } {
  const scrub = secretScrubber(apiKeys);
  if (e instanceof ProviderError) return { ok: false, error: scrubbedError({ ...e.toInfo(), status: e.status ?? undefined, where }, scrub) };
  const { name: _name, ...info } = errorInfo(e, where);
  return { ok: false, error: scrubbedError({ ...info, kind: info.kind === 'internal' ? 'batch' : info.kind, where }, scrub) };
}

function pTrueEventText(e: PTrueBatchEvent): string {
  if (e.type === 'round') return `p(True) batch round ${e.round} (${e.requests} requests)`;
  if (e.type === 'submitted') return `Submitted p(True) batch ${e.status.id} (${e.requests} requests)`;
  if (e.type === 'status') return `p(True) batch ${e.status.id}: ${e.status.raw} — ${e.status.counts.succeeded} succeeded, ${e.status.counts.failed} failed of ${e.status.counts.total}`;
  return describeIngest(e.report, 5).join('\n');
}

/** Where a run's requests' usage receipts are added up (answer-phases.ts names them so): p(True)'s batch replies count with the direct ones. */
const receiptKeyOf = (runId: string, spec: RunSpec, modelIndex: number) => `${runId}|${modelLabel(spec.models[modelIndex])}`;

/** The run's p(True) set when it asks for p(True) and every sample of the model is stored; undefined otherwise (its requests come after the samples'). */
async function pTrueSetOf(spec: RunSpec, set: SampleRequestSet, cache: SampleCache) {
  if (!spec.sampling.pTrue || (await missingSamples(set, cache)) > 0) return undefined;
  return pTrueSetForSamples(set, spec.sampling.pTrue, cache);
}

function eventText(e: BatchEvent): string {
  if (e.type === 'round') return `Batch round ${e.round}`;
  if (e.type === 'submitted') return `Submitted batch ${e.status.id} (${e.requests} requests)`;
  if (e.type === 'status') return `Batch ${e.status.id}: ${e.status.raw} — ${e.status.counts.succeeded} succeeded, ${e.status.counts.failed} failed of ${e.status.counts.total}`;
  if (e.type === 'ingested') return describeIngest(e.report, 5).join('\n');
  return `${e.missing} samples missing after the batches: requesting them through the normal API`;
}

/** The words for batches submitted earlier and collected now instead of submitted again. */
const collectingText = (what: string, ids: string[]) => `Collecting ${ids.length} ${what} batch(es) submitted earlier (still with the provider): ${ids.join(', ')}`;

export function batchWorkerApi(deps: BatchApiDeps): BatchWorkerApi {
  const { stores } = deps;
  /** The wait in progress: `stopWaiting` ends it (its batches stay recorded). */
  let waiting: AbortController | undefined;
  const startWaiting = () => {
    waiting = new AbortController();
    return waiting.signal;
  };

  /**
   * `body` over the stored run's spec (questions included); a run that is not stored, or anything
   * `body` throws, answers as a failure naming `where` (with the keys scrubbed from it).
   */
  async function forRun<T>(runId: string, where: string, body: (spec: RunSpec) => Promise<Result<T>>, apiKeys: (string | undefined)[] = []): Promise<Result<T>> {
    try {
      const run = await (await stores()).runs.getRun(runId);
      if (!run) return { ok: false, error: { kind: 'not-found', message: `There is no run ${runId} on this device.`, where: 'batch' } };
      return await body(run.spec);
    } catch (e) {
      return fail(e, where, apiKeys);
    }
  }

  /** The ledger hooks of one model's samples or p(True), or of the judge. */
  async function hooksFor(runId: string, scope: Omit<PendingScope, 'runId'>) {
    return pendingHooks((await stores()).pendingBatches, { runId, ...scope }, deps.now);
  }

  /** A model's samples (then its p(True), once every sample is in), through the batch service; `collectOnly`: the recorded batches only. */
  async function sampleBatches(runId: string, spec: RunSpec, modelIndex: number, apiKey: string | undefined, opts: { retryInteractively: boolean; collectOnly: boolean; signal: AbortSignal }, say: (text: string) => void): Promise<Result<SubmitSummary>> {
    const made = await requestSetForRun(spec, modelIndex);
    if (!made.ok) return made;
    const set = made.value;
    const model = spec.models[modelIndex];
    const { samples } = await stores();
    const lines: string[] = [];
    const tell = (text: string) => {
      lines.push(text);
      say(text);
    };
    const scope = { modelIndex, provider: model.preset, model: model.model };
    const hooks = await hooksFor(runId, { ...scope, kind: 'samples' });
    if (hooks.pendingIds.length > 0) tell(collectingText('sample', hooks.pendingIds));
    const result = await submitSampleBatches({
      set, cache: samples, service: batchServiceFor(set.spec.model, apiKey), poll: deps.poll, signal: opts.signal, collectOnly: opts.collectOnly, ...hooks,
      interactive: opts.retryInteractively && !opts.collectOnly ? { provider: createProvider({ ...model, apiKey }), concurrency: spec.sampling.concurrency } : undefined,
      onEvent: (e) => tell(eventText(e)),
    });
    await samples.flush();
    for (const f of result.failed.slice(0, 20)) lines.push(`Failed: question ${f.questionId}, samples ${f.indices[0]}–${f.indices.at(-1)}: ${f.message}`);
    // The services' errors as they came: scrubbed here as every other failure is (fail()).
    if (result.error) return { ok: false, error: scrubbedError(result.error, secretScrubber([apiKey])) };
    // Every sample in: the run's p(True), where it asks for it, as batches of its own (resuming the run then reads it, sending nothing).
    const pSet = result.missing === 0 && result.state !== 'cancelled' ? await pTrueSetOf(spec, set, samples) : undefined;
    const pHooks = await hooksFor(runId, { ...scope, kind: 'p-true' });
    if (!pSet || (opts.collectOnly && pHooks.pendingIds.length === 0)) return { ok: true, value: { state: result.state, lines, missing: result.missing } };
    if (pHooks.pendingIds.length > 0) tell(collectingText('p(True)', pHooks.pendingIds));
    const p = await submitPTrueBatches({
      set: pSet, cache: samples, service: batchServiceFor(set.spec.model, apiKey), receiptKey: receiptKeyOf(runId, spec, modelIndex),
      poll: deps.poll, signal: opts.signal, collectOnly: opts.collectOnly, ...pHooks,
      onEvent: (e) => tell(pTrueEventText(e)),
    });
    await samples.flush();
    if (p.error) return { ok: false, error: scrubbedError(p.error, secretScrubber([apiKey])) };
    if (p.missing > 0) lines.push(`p(True): ${p.missing} requests still to make; resuming the run asks them through the normal API.`);
    return { ok: true, value: { state: p.state === 'done' ? result.state : p.state, lines, missing: result.missing } };
  }

  /** The judge's batches: the recorded ones collected first; then, unless `collectOnly`, the plan's other requests submitted. */
  async function judgeBatches(runId: string, spec: RunSpec, apiKey: string | undefined, opts: { collectOnly: boolean; signal: AbortSignal }, onProgress?: (p: BatchProgress) => void): Promise<Result<SubmitSummary>> {
    const { samples, stages } = await stores();
    const plan = await planRunJudge(spec, samples, stages);
    if (!plan.ok) return plan;
    const judge = plan.value.set.model;
    const hooks = await hooksFor(runId, { kind: 'judge', provider: judge.preset, model: judge.model });
    const lines = hooks.pendingIds.length > 0 ? [collectingText('judge', hooks.pendingIds)] : [];
    if (lines.length) onProgress?.({ phase: 'judging', text: lines[0] });
    if (plan.value.lines.length === 0 && hooks.pendingIds.length === 0) return { ok: true, value: { state: 'done', lines: ['Nothing for the judge to do: every sampled question is grouped already (or has one answer).'], missing: 0 } };
    try {
      const r = await submitRunJudge(spec, plan.value, stages, batchServiceFor(judge, apiKey), {
        ...deps.poll, ...hooks, collectOnly: opts.collectOnly, signal: opts.signal,
        onStatus: (s) => onProgress?.({ phase: 'judging', done: s.counts.succeeded + s.counts.failed, total: s.counts.total, unit: 'requests', text: `Judge batch ${s.id}: ${s.raw} — ${s.counts.succeeded} succeeded, ${s.counts.failed} failed of ${s.counts.total}` }),
      });
      return { ok: true, value: { state: r.failed ? 'incomplete' : 'done', lines: [...lines, ...judgeLines(r, 'judge batch')], missing: r.failed } };
    } catch (e) {
      // Stopped waiting: the batches stay recorded, to resume.
      if (opts.signal.aborted) return { ok: true, value: { state: 'cancelled', lines: [...lines, 'Stopped waiting: the judge batch is still with the provider; resume it from this page.'], missing: 0 } };
      throw e;
    }
  }

  return {
    requestFiles(runId, modelIndex) {
      return forRun(runId, 'writing the batch request file', async (spec): Promise<Result<RequestFiles>> => {
        const made = await requestSetForRun(spec, modelIndex);
        if (!made.ok) return made;
        const set = made.value;
        const { samples } = await stores();
        const files: RequestFiles['files'] = [];
        for await (const part of inParts(set.api, set.requests(samples))) {
          const name = `semece-${set.api}-requests${files.length ? `-${files.length + 1}` : ''}.jsonl`;
          files.push({ name, blob: new Blob([toJsonl(part.map((p) => p.line))], { type: 'application/jsonl' }), requests: part.length });
        }
        const counts = { samples: set.counts.samples, cached: set.counts.cached, requests: set.counts.requests };
        // Every sample stored: the files are p(True)'s current round, where the run asks for it.
        const pSet = files.length === 0 ? await pTrueSetOf(spec, set, samples) : undefined;
        if (pSet) {
          for await (const part of inParts(pSet.api, pSet.requests(samples))) {
            const name = `semece-${pSet.api}-p-true-requests${files.length ? `-${files.length + 1}` : ''}.jsonl`;
            files.push({ name, blob: new Blob([toJsonl(part.map((p) => p.line))], { type: 'application/jsonl' }), requests: part.length });
          }
          return { ok: true, value: { files, counts, pTrue: { questions: pSet.counts.questions, cached: pSet.counts.cached, requests: pSet.counts.requests } } };
        }
        return { ok: true, value: { files, counts } };
      });
    },

    readResults(runId, modelIndex, files, onProgress) {
      return forRun(runId, 'reading the batch result file', async (spec) => {
        const made = await requestSetForRun(spec, modelIndex);
        if (!made.ok) return made;
        const { samples } = await stores();
        const summary: ReadSummary = { lines: [], stored: 0, failed: 0, problems: 0 };
        // Every sample stored and the run asks for p(True): the files are p(True)'s results.
        const pSet = await pTrueSetOf(spec, made.value, samples);
        for (const file of files) {
          // Streamed (never a whole-file string); the bytes counted on the way say how far it is.
          let read = 0;
          const counted = file.stream().pipeThrough(new TransformStream<BufferSource, BufferSource>({ transform: (chunk, out) => ((read += chunk.byteLength), out.enqueue(chunk)) }));
          const report = pSet
            ? await ingestPTrueResults(pSet, counted.pipeThrough(new TextDecoderStream()), { file: file.name, cache: samples, receiptKey: receiptKeyOf(runId, spec, modelIndex) })
            : await ingestSampleResults(made.value, counted.pipeThrough(new TextDecoderStream()), {
              file: file.name, cache: samples,
              onProgress: (p) => onProgress?.({ phase: 'reading', item: file.name, done: read, total: file.size, unit: 'bytes', text: `${file.name}: ${file.size ? Math.floor((100 * read) / file.size) : 100}% read, ${p.lines} lines, ${p.stored} samples stored` }),
            });
          await samples.flush();
          summary.lines.push(...describeIngest(report));
          summary.stored += report.stored;
          summary.failed += report.failed.length;
          summary.problems += report.problemCount;
        }
        return { ok: true, value: summary };
      });
    },

    submit(runId, modelIndex, { apiKey, retryInteractively }, onProgress) {
      const signal = startWaiting();
      return forRun(runId, 'submitting the batch', (spec) =>
        sampleBatches(runId, spec, modelIndex, apiKey, { retryInteractively, collectOnly: false, signal }, (text) => onProgress?.({ phase: 'submitting', text })), [apiKey]);
    },

    judgeRequestFiles(runId) {
      return forRun(runId, 'writing the judge request file', async (spec) => {
        const { samples, stages } = await stores();
        const plan = await planRunJudge(spec, samples, stages);
        if (!plan.ok) return plan;
        const files: RequestFiles['files'] = [];
        async function* lines() {
          yield* plan.ok ? plan.value.lines : [];
        }
        for await (const part of inParts(plan.value.set.model.kind, lines())) {
          files.push({ name: `semece-judge-requests${files.length ? `-${files.length + 1}` : ''}.jsonl`, blob: new Blob([toJsonl(part.map((p) => p.line))], { type: 'application/jsonl' }), requests: part.length });
        }
        const c = plan.value.counts;
        return { ok: true, value: { files, counts: { samples: c.rows + c.cached + c.unsampled, cached: c.cached, requests: plan.value.lines.length } } };
      });
    },

    readJudgeResults(runId, files) {
      return forRun(runId, 'reading the judge result file', async (spec) => {
        const { samples, stages } = await stores();
        const plan = await planRunJudge(spec, samples, stages);
        if (!plan.ok) return plan;
        const summary: ReadSummary = { lines: [], stored: 0, failed: 0, problems: 0 };
        for (const file of files) {
          const r = await storeRunJudgeResults(spec, plan.value.set, stages, file.stream().pipeThrough(new TextDecoderStream()), file.name);
          summary.lines.push(...judgeLines(r, file.name));
          summary.stored += r.stored;
          summary.failed += r.failed;
          summary.problems += r.problems.length;
        }
        return { ok: true, value: summary };
      });
    },

    submitJudge(runId, apiKey, onProgress) {
      const signal = startWaiting();
      return forRun(runId, 'submitting the judge batch', (spec) => judgeBatches(runId, spec, apiKey, { collectOnly: false, signal }, onProgress), [apiKey]);
    },

    pendingBatches(runId) {
      return forRun(runId, 'reading the batches still with the provider', async () => ({ ok: true, value: await (await stores()).pendingBatches.list(runId) }));
    },

    resume(runId, apiKeys, onProgress) {
      const signal = startWaiting();
      const keys = Object.values(apiKeys);
      return forRun(runId, 'collecting the batches submitted earlier', async (spec) => {
        const pending = await (await stores()).pendingBatches.list(runId);
        const lines: string[] = [];
        let state = 'done';
        let missing = 0;
        // Each model with a recorded batch (samples or p(True)), then the judge: collected, nothing submitted.
        const models = [...new Set(pending.flatMap((b) => (b.kind !== 'judge' && b.modelIndex !== undefined && spec.models[b.modelIndex] ? [b.modelIndex] : [])))];
        for (const i of models) {
          const r = await sampleBatches(runId, spec, i, apiKeys[spec.models[i].preset], { retryInteractively: false, collectOnly: true, signal }, (text) => onProgress?.({ phase: 'submitting', text }));
          if (!r.ok) return r;
          lines.push(...r.value.lines);
          missing += r.value.missing;
          if (r.value.state !== 'done') state = r.value.state;
          if (signal.aborted) return { ok: true, value: { state: 'cancelled', lines, missing } };
        }
        if (pending.some((b) => b.kind === 'judge')) {
          const judge = pending.find((b) => b.kind === 'judge')!;
          const r = await judgeBatches(runId, spec, apiKeys[judge.provider], { collectOnly: true, signal }, onProgress);
          if (!r.ok) return r;
          lines.push(...r.value.lines);
          if (r.value.state !== 'done') state = r.value.state;
        }
        return { ok: true, value: { state, lines, missing } };
      }, keys);
    },

    forget(runId, batchId) {
      return forRun(runId, 'forgetting the batch', async () => {
        await (await stores()).pendingBatches.clear(runId, batchId);
        return { ok: true, value: undefined };
      });
    },

    async stopWaiting() {
      waiting?.abort();
    },
  };
}
