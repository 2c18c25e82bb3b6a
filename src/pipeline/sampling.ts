/**
 * The sampling stage: for each question, n replies to the generation prompt, each stored in a
 * SampleCache under a key derived from everything it depends on (sample-cache.ts). Only missing
 * indices are requested, so a repeated or resumed run asks for nothing already stored and ends
 * with exactly n samples per question. Requests are batched by the provider's n limit, and replies
 * that come back short are made up by further requests. Pause or cancel at any moment through an AbortSignal.
 */
import { ProviderError, stopsRun } from '../providers/errors.ts';
import type { GenerationSettings, RequestEvent, SamplingProvider } from '../model/provider.ts';
import { type Price, costOf, etaMs } from '../model/cost.ts';
import { extractSample } from './extract.ts';
import { DEFAULT_GENERATION_PROMPT, fillPrompt, generationMessages, validatePromptTemplate } from './prompts.ts';
import { type SampleCache, type UsageReceipt, keyAt, readQuestions, sampleKeyBase, storedIndices } from '../model/sample-cache.ts';
import { firstRowPerId, type Question, type Sample, type StageError } from '../model/rows.ts';
import type { SamplingProgress } from '../model/run-spec.ts';
import { BatchWriter } from '../model/write-batcher.ts';
import { UnreachableWatch } from './unreachable.ts';

/** A reply as stored: its question, its sample index, its cache key and what was read from it. */
export interface StoredReply {
  questionId: string;
  index: number;
  key: string;
  sample: Sample;
  /** On the first reply of each request: the request's tokens (its receipt goes with the batch that stores it). */
  request?: { input: number; output: number };
}

export interface SamplingOptions {
  questions: Question[];
  provider: SamplingProvider;
  settings: GenerationSettings;
  n: number;
  promptTemplate?: string;
  cache: SampleCache;
  /**
   * Aborted with reason 'pause': no new requests; those in flight finish and are stored, and the
   * result is 'paused'. Aborted with any other reason: requests in flight are aborted too, and the
   * result is 'cancelled'. Either way a later run over the same cache asks only for what is missing.
   */
  signal?: AbortSignal;
  onProgress?: (p: SamplingProgress) => void;
  /** Called after each batch of samples is stored. */
  onSamples?: (batch: StoredReply[]) => void;
  price?: Price | null;
  /** Requests in flight at once; defaults to the provider's concurrency (or 8). */
  concurrency?: number;
  /** A question whose requests fail this many times after retries is left incomplete. */
  maxFailuresPerQuestion?: number;
  progressIntervalMs?: number;
  now?: () => number;
  /** Send nothing: only find what is stored (a partial report scores the questions already complete). */
  cachedOnly?: boolean;
  /**
   * Where the requests' usage is added up, with the samples they stored (a run's model): the
   * caller reads it back with `cache.usage(receiptKey)` for counters that match what is stored.
   */
  receiptKey?: string;
}

export interface SamplingResult {
  state: 'done' | 'incomplete' | 'paused' | 'cancelled' | 'stopped';
  /** Why the run stopped (auth, quota, bad request, a cache that cannot be written …). */
  error?: StageError;
  progress: SamplingProgress;
  /** Settings as sent (after capability adjustments), to store with the run. */
  effective: Partial<GenerationSettings> & { n: number };
  /** Run-time capability findings (e.g. the n limit lowered). */
  notes: string[];
  /**
   * Questions still short of samples: `refused` when the provider refused the prompt (a 400; asking
   * again gets the same answer until something changes), else after repeated retryable failures.
   */
  incomplete: { questionId: string; missing: number; error?: StageError; refused?: boolean }[];
  /**
   * The key base of each question sampled (first row per id, in dataset order), so the caller
   * reads the stored samples back (readSamples) without hashing every question again.
   */
  keyBases: Map<string, string>;
}

/** Questions hashed at once (one digest each). */
const KEY_PASS_CHUNK = 256;
/** Questions whose stored indices are asked in one call (one transaction), in key order. */
const STORED_SLICE = 4096;

/** The key base of one question (its sample keys are `<base>#<index>`): one digest. */
export function questionKeyBase(provider: Pick<SamplingProvider, 'config'>, settings: GenerationSettings, promptTemplate: string, q: Question): Promise<string> {
  const prompt = fillPrompt(promptTemplate, q);
  const { preset, baseUrl, model } = provider.config;
  return sampleKeyBase({ preset, baseUrl, model, prompt, settings, questionId: q.id, question: q.question });
}

/** The n keys of one question, in index order. */
export async function questionKeys(
  provider: Pick<SamplingProvider, 'config'>,
  settings: GenerationSettings,
  promptTemplate: string,
  q: Question,
  n: number,
): Promise<string[]> {
  const base = await questionKeyBase(provider, settings, promptTemplate, q);
  return Array.from({ length: n }, (_, i) => keyAt(base, i));
}

/**
 * Stored samples of each question (undefined where one is missing), e.g. to write the authors' rows.
 * `keyBases` (from runSampling) spares the digests; each question is one range read where the cache has one.
 */
export async function readSamples(
  opts: Pick<SamplingOptions, 'questions' | 'provider' | 'settings' | 'n' | 'promptTemplate' | 'cache'> & { keyBases?: Map<string, string> },
): Promise<(Sample | undefined)[][]> {
  const template = opts.promptTemplate ?? DEFAULT_GENERATION_PROMPT;
  const out: (Sample | undefined)[][] = [];
  for (let from = 0; from < opts.questions.length; from += KEY_PASS_CHUNK) {
    const chunk = opts.questions.slice(from, from + KEY_PASS_CHUNK);
    const bases = await Promise.all(chunk.map(async (q) => opts.keyBases?.get(q.id) ?? questionKeyBase(opts.provider, opts.settings, template, q)));
    out.push(...(await readQuestions(opts.cache, bases, opts.n)));
  }
  return out;
}

function toStageError(e: unknown, where?: string): StageError {
  if (e instanceof ProviderError) return { ...e.toInfo(), status: e.status ?? undefined, where };
  return { kind: 'internal', message: e instanceof Error ? e.message : String(e), where };
}

interface Pending {
  qi: number;
  /** Key base: sample i is stored under keyAt(base, i); n full keys per question are never kept. */
  base: string;
  missing: number[];
  failures: number;
  error?: StageError;
}

/**
 * This many questions refused with a 400 before any request succeeds means the refusal concerns
 * every request (a setting the model does not take, a bad prompt template), not the questions:
 * the run stops then instead of paying to learn it once per question.
 */
export const REFUSALS_BEFORE_STOP = 3;

export async function runSampling(opts: SamplingOptions): Promise<SamplingResult> {
  const now = opts.now ?? Date.now;
  const started = now();
  const template = opts.promptTemplate ?? DEFAULT_GENERATION_PROMPT;
  // A worker with nothing to take waits while others are in flight: their shortfalls come back as work.
  const wake: (() => void)[] = [];
  const notify = () => {
    for (const w of wake.splice(0)) w();
  };
  // `stop` ends the run from inside (a fatal error); `cancel` follows the caller's signal unless it
  // asks for a pause, which only stops new requests.
  const stop = new AbortController();
  const cancel = new AbortController();
  let pausing = false;
  const signal = AbortSignal.any([stop.signal, cancel.signal]);
  const onCallerAbort = () => {
    if (opts.signal?.reason === 'pause') pausing = true;
    else cancel.abort(opts.signal?.reason);
    notify();
  };
  if (opts.signal?.aborted) onCallerAbort();
  else opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const progress: SamplingProgress = {
    state: 'running',
    requests: { done: 0, failed: 0, retrying: 0, handled: 0, retries: 0, inFlight: 0 },
    samples: { done: 0, cached: 0, total: 0 },
    tokens: { input: 0, output: 0 },
    cost: opts.price === undefined ? null : costOf({ input: 0, output: 0 }, opts.price),
    etaMs: null,
    elapsedMs: 0,
  };
  let fetched = 0;
  let lastEmit = -Infinity;
  const emit = (force = false) => {
    const t = now();
    progress.elapsedMs = t - started;
    if (progress.state === 'running' || progress.state === 'paused') progress.state = pausing ? 'paused' : 'running';
    progress.etaMs = etaMs(fetched, progress.samples.total - progress.samples.done, progress.elapsedMs);
    progress.cost = costOf(progress.tokens, opts.price ?? null);
    if (force || t - lastEmit >= (opts.progressIntervalMs ?? 100)) {
      lastEmit = t;
      opts.onProgress?.(structuredClone(progress));
    }
  };
  const result = (state: SamplingResult['state'], error?: StageError): SamplingResult => {
    progress.state = state;
    emit(true);
    return {
      state,
      error,
      progress: structuredClone(progress),
      effective: opts.provider.effectiveSettings(opts.settings, opts.n),
      notes: opts.provider.notes(),
      incomplete: pending
        .filter((p) => p.missing.length > 0)
        .map((p) => ({ questionId: questions[p.qi].id, missing: p.missing.length, error: p.error, ...(p.error?.kind === 'bad-request' ? { refused: true } : {}) })),
      keyBases: new Map(pending.map((p) => [questions[p.qi].id, p.base])),
    };
  };

  const pending: Pending[] = [];
  const checked = validatePromptTemplate(template);
  // First row per id wins (as in the spec): a repeated id would otherwise request the same keys twice.
  const questions = firstRowPerId(opts.questions);
  if (!checked.ok) return result('stopped', checked.error);
  if (!Number.isInteger(opts.n) || opts.n < 1) return result('stopped', { kind: 'settings', message: `Samples per question must be a whole number ≥ 1 (got ${opts.n}).` });

  progress.samples.total = questions.length * opts.n;
  try {
    // One digest per question (a chunk at a time, in parallel), then which samples are stored, asked
    // in key order a slice at a time: a cache that reads key ranges (store/span-reads.ts) then
    // serves a slice of a run's questions in a few requests instead of one each.
    const bases: string[] = [];
    for (let from = 0; from < questions.length; from += KEY_PASS_CHUNK) {
      if (signal.aborted || pausing) break;
      const chunk = questions.slice(from, from + KEY_PASS_CHUNK);
      bases.push(...(await Promise.all(chunk.map((q) => questionKeyBase(opts.provider, opts.settings, template, q)))));
    }
    const missingOf: number[][] = new Array(bases.length);
    const byKey = bases.map((_, qi) => qi).sort((a, b) => (bases[a] < bases[b] ? -1 : bases[a] > bases[b] ? 1 : 0));
    for (let from = 0; from < byKey.length; from += STORED_SLICE) {
      const slice = byKey.slice(from, from + STORED_SLICE);
      const stored = await storedIndices(opts.cache, slice.map((qi) => bases[qi]), opts.n);
      slice.forEach((qi, j) => {
        const missing: number[] = [];
        for (let i = 0; i < opts.n; i++) if (!stored[j][i]) missing.push(i);
        missingOf[qi] = missing;
      });
    }
    bases.forEach((base, qi) => {
      progress.samples.cached += opts.n - missingOf[qi].length;
      pending.push({ qi, base, missing: missingOf[qi], failures: 0 });
    });
  } catch (e) {
    return result('stopped', { kind: 'cache', message: `Could not read the sample cache: ${toStageError(e).message}` });
  }
  progress.samples.done = progress.samples.cached;
  emit(true);
  if (opts.cachedOnly) {
    opts.signal?.removeEventListener('abort', onCallerAbort);
    return result(pending.some((p) => p.missing.length > 0) ? 'incomplete' : 'done');
  }

  // Write-behind through the write batcher: one put in flight at a time, taking everything queued
  // meanwhile (natural batching).
  let fatal: StageError | undefined;
  // Failed requests since the last write: their count goes with the next receipt.
  let failedSinceWrite = 0;
  const receiptFor = (batch: readonly StoredReply[]): UsageReceipt | undefined => {
    if (opts.receiptKey === undefined) return undefined;
    const receipt: UsageReceipt = { key: opts.receiptKey, requests: 0, failed: failedSinceWrite, input: 0, output: 0 };
    failedSinceWrite = 0;
    for (const r of batch) {
      if (!r.request) continue;
      receipt.requests += 1;
      receipt.input += r.request.input;
      receipt.output += r.request.output;
    }
    return receipt;
  };
  const writer = new BatchWriter<StoredReply>(async (batch) => {
    try {
      await opts.cache.put(batch.map(({ key, sample }) => ({ key, sample })), receiptFor(batch));
    } catch (e) {
      // The cache's own words (a full browser storage says how full and what to do); nothing already stored is lost.
      const why = toStageError(e).message;
      const said = /^(Could not store|The browser's storage)/.test(why) ? why : `Could not store samples: ${why}.`;
      fatal ??= { kind: 'cache', message: `${said} Nothing more is requested until the samples can be stored.` };
      stop.abort();
      return;
    }
    progress.samples.done += batch.length;
    opts.onSamples?.(batch);
    emit();
  });
  const flush = (): Promise<void> => writer.flush();

  const maxFailures = opts.maxFailuresPerQuestion ?? 3;
  // A server that cannot be reached stops the run, not each question in turn (unreachable.ts).
  const reachable = new UnreachableWatch(opts.provider.config.baseUrl || opts.provider.config.preset);
  /** Questions refused (400) while no request has succeeded yet. */
  let refusedFirst = 0;
  const takeChunk = (): { p: Pending; indices: number[] } | undefined => {
    const p = pending.find((x) => x.missing.length > 0 && x.failures < maxFailures);
    if (!p) return undefined;
    return { p, indices: p.missing.splice(0, Math.max(1, opts.provider.maxN(opts.settings))) };
  };

  signal.addEventListener('abort', notify, { once: true });
  const worker = async () => {
    for (;;) {
      if (signal.aborted || pausing) return;
      const chunk = takeChunk();
      if (!chunk) {
        if (progress.requests.inFlight === 0) return notify();
        await new Promise<void>((resolve) => wake.push(resolve));
        continue;
      }
      const { p, indices } = chunk;
      const q = questions[p.qi];
      let retrying = false;
      // HTTP requests of this call that failed: all handled if the call succeeds, all but the last if it fails.
      let failedSends = 0;
      const onEvent = (e: RequestEvent) => {
        if (e.type === 'failed' && e.error.kind !== 'aborted') failedSends++;
        if (e.type === 'retrying') {
          progress.requests.handled++;
          progress.requests.retries++;
          if (!retrying) progress.requests.retrying++;
          retrying = true;
          emit();
        }
      };
      progress.requests.inFlight++;
      try {
        const c = await opts.provider.completeOnce({
          messages: generationMessages(fillPrompt(template, q)),
          settings: opts.settings,
          n: indices.length,
          signal,
          onEvent,
        });
        progress.requests.done++;
        progress.requests.handled += failedSends;
        reachable.success();
        progress.tokens.input += c.usage.inputTokens;
        progress.tokens.output += c.usage.outputTokens;
        const got = c.replies.slice(0, indices.length);
        fetched += got.length;
        const usage = { input: c.usage.inputTokens, output: c.usage.outputTokens };
        void writer.add(got.map((r, j) => ({ questionId: q.id, index: indices[j], key: keyAt(p.base, indices[j]), sample: extractSample(r.text, r.finishReason), ...(j === 0 ? { request: usage } : {}) })));
        // Indices not served go back to the front of this question's list: made up by the next request.
        p.missing.unshift(...indices.slice(got.length));
        void flush();
      } catch (e) {
        p.missing.unshift(...indices);
        const err = toStageError(e, `question ${q.id}`);
        if (err.kind === 'aborted') {
          progress.requests.handled += failedSends;
          return;
        }
        progress.requests.handled += Math.max(0, failedSends - 1);
        progress.requests.failed++;
        failedSinceWrite++;
        if (e instanceof ProviderError && stopsRun(e)) {
          fatal ??= err;
          stop.abort();
          return;
        }
        const gone = reachable.failure(err);
        if (gone) {
          fatal ??= gone;
          stop.abort();
          return;
        }
        p.error = err;
        if (err.kind === 'bad-request') {
          // The provider refused this prompt: asking again gets the same answer, so the question is failed now.
          p.failures = maxFailures;
          if (progress.requests.done === 0 && ++refusedFirst >= Math.min(REFUSALS_BEFORE_STOP, questions.length)) {
            fatal ??= {
              ...err,
              message: `The first ${refusedFirst} question(s) were all refused, so the cause is likely the settings or the model rather than the questions: ${err.message}`,
            };
            stop.abort();
            return;
          }
        } else p.failures++;
      } finally {
        progress.requests.inFlight--;
        if (retrying) progress.requests.retrying--;
        // Never throttle away the moment nothing is in flight: a pausing caller waits for it.
        emit(progress.requests.inFlight === 0);
        notify();
      }
    }
  };

  const width = Math.max(1, Math.floor(opts.concurrency ?? opts.provider.config.concurrency ?? 8));
  await Promise.all(Array.from({ length: width }, worker));
  await flush();
  // Failures after the last stored reply still count: a receipt of their own.
  if (failedSinceWrite > 0 && opts.receiptKey !== undefined && !fatal?.kind?.startsWith('cache')) {
    try {
      await opts.cache.put([], receiptFor([]));
    } catch {
      // The counters keep this execution's count; only a reload would lose it.
    }
  }
  opts.signal?.removeEventListener('abort', onCallerAbort);
  if (fatal) return result('stopped', fatal);
  if (cancel.signal.aborted) return result('cancelled');
  if (pausing) return result('paused');
  return result(pending.some((p) => p.missing.length > 0) ? 'incomplete' : 'done');
}
