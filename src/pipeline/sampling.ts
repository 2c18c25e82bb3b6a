/**
 * The sampling stage: for each question, n replies to the generation prompt, each stored in a
 * SampleCache under a key derived from everything it depends on (sample-cache.ts). Only missing
 * indices are requested, so a repeated or resumed run asks for nothing already stored and ends
 * with exactly n samples per question. Requests are batched by the provider's n limit, and replies
 * that come back short are made up by further requests. Pause or cancel at any moment through an AbortSignal.
 *
 * One run of the loop (SamplingRun) goes through its phases, one method each: plan (which samples
 * are stored), request (workers asking for what is missing, each reply stored through the write
 * batcher, each failure weighed: a fatal error, a server gone, a refused prompt), finish (the last
 * receipt, and how it ended).
 *
 * An adaptive run (`adaptive`: n is then the maximum) samples each question in rounds: a question
 * asks only for its current round's slots, and when they are all in, the stopping rule names the
 * next round or stops the question (adaptive-rounds.ts). Its samples are ordinary slots 0..k−1,
 * so a resumed run replays the same rounds from the cache.
 */
import { ProviderError, stopsRun } from '../providers/errors.ts';
import type { Completion, RequestEvent } from '../model/provider.ts';
import { costOf, etaMs } from '../model/cost.ts';
import { extractSample } from './extract.ts';
import { withSequenceLogprob } from './sequence-logprob.ts';
import { DEFAULT_GENERATION_PROMPT, fillPrompt, generationMessages, validatePromptTemplate } from './prompts.ts';
import { type UsageReceipt, keyAt, storedIndices } from '../model/sample-cache.ts';
import { firstRowPerId, type Question, type StageError } from '../model/rows.ts';
import { adaptiveRuleOf, type SamplingProgress } from '../model/run-spec.ts';
import { BatchWriter } from '../model/write-batcher.ts';
import { UnreachableWatch } from './unreachable.ts';
import { KEY_PASS_CHUNK, questionKeyBase } from './sample-keys.ts';
import type { SamplingOptions, SamplingResult, StoredReply } from './sampling-options.ts';
import { errorMessage } from '../model/app-error.ts';
import { adaptiveRuleProblems, type AdaptiveRule } from '../core/adaptive-rule.ts';
import { AdaptiveRounds, type QuestionRounds } from './adaptive-rounds.ts';

export { questionKeyBase, questionKeys, readSamples } from './sample-keys.ts';

export type { SamplingOptions, SamplingResult, StoredReply } from './sampling-options.ts';

/** Questions whose stored indices are asked in one call (one transaction), in key order. */
const STORED_SLICE = 4096;

function toStageError(e: unknown, where?: string): StageError {
  if (e instanceof ProviderError) return { ...e.toInfo(), status: e.status ?? undefined, where };
  return { kind: 'internal', message: errorMessage(e), where };
}

interface Pending {
  qi: number;
  /** Key base: sample i is stored under keyAt(base, i); n full keys per question are never kept. */
  base: string;
  missing: number[];
  failures: number;
  error?: StageError;
  /** An adaptive run: the question's rounds so far. */
  adaptive?: QuestionRounds;
}

/**
 * This many questions refused with a 400 before any request succeeds means the refusal concerns
 * every request (a setting the model does not take, a bad prompt template), not the questions:
 * the run stops then instead of paying to learn it once per question.
 */
export const REFUSALS_BEFORE_STOP = 3;

export function runSampling(opts: SamplingOptions): Promise<SamplingResult> {
  return new SamplingRun(opts).run();
}

/** One execution of the sampling loop, its phases one method each. */
class SamplingRun {
  private readonly now: () => number;
  private readonly started: number;
  private readonly template: string;
  // A worker with nothing to take waits while others are in flight: their shortfalls come back as work.
  private readonly wake: (() => void)[] = [];
  // `stop` ends the run from inside (a fatal error); `cancel` follows the caller's signal unless it
  // asks for a pause, which only stops new requests.
  private readonly stop = new AbortController();
  private readonly cancel = new AbortController();
  private pausing = false;
  private readonly signal: AbortSignal;
  private readonly progress: SamplingProgress;
  private fetched = 0;
  private lastEmit = -Infinity;
  // First row per id wins (as in the spec): a repeated id would otherwise request the same keys twice.
  private readonly questions: Question[];
  private readonly pending: Pending[] = [];
  private fatal: StageError | undefined;
  // Failed requests since the last write: their count goes with the next receipt.
  private failedSinceWrite = 0;
  private readonly maxFailures: number;
  // A server that cannot be reached stops the run, not each question in turn (unreachable.ts).
  private readonly reachable: UnreachableWatch;
  /** Questions refused (400) while no request has succeeded yet. */
  private refusedFirst = 0;
  // Write-behind through the write batcher: one put in flight at a time, taking everything queued
  // meanwhile (natural batching).
  private readonly writer = new BatchWriter<StoredReply>((batch) => this.store(batch));
  private readonly rule: AdaptiveRule | undefined;
  /** An adaptive run's rounds (set when the plan starts). */
  private rounds: AdaptiveRounds | undefined;

  constructor(private readonly opts: SamplingOptions) {
    this.now = opts.now ?? Date.now;
    this.started = this.now();
    this.template = opts.promptTemplate ?? DEFAULT_GENERATION_PROMPT;
    this.signal = AbortSignal.any([this.stop.signal, this.cancel.signal]);
    this.progress = {
      state: 'running',
      requests: { done: 0, failed: 0, retrying: 0, handled: 0, retries: 0, inFlight: 0 },
      samples: { done: 0, cached: 0, total: 0 },
      tokens: { input: 0, output: 0 },
      cost: opts.price === undefined ? null : costOf({ input: 0, output: 0 }, opts.price),
      etaMs: null,
      elapsedMs: 0,
    };
    this.questions = firstRowPerId(opts.questions);
    this.maxFailures = opts.maxFailuresPerQuestion ?? 3;
    this.rule = adaptiveRuleOf({ n: opts.n, adaptive: opts.adaptive });
    this.reachable = new UnreachableWatch(opts.provider.config.baseUrl || opts.provider.config.preset);
    if (opts.signal?.aborted) this.onCallerAbort();
    else opts.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  async run(): Promise<SamplingResult> {
    const { opts } = this;
    const checked = validatePromptTemplate(this.template);
    if (!checked.ok) return this.result('stopped', checked.error);
    if (!Number.isInteger(opts.n) || opts.n < 1) return this.result('stopped', { kind: 'settings', message: `Samples per question must be a whole number ≥ 1 (got ${opts.n}).` });
    const ruleProblems = this.rule ? adaptiveRuleProblems(this.rule) : [];
    if (ruleProblems.length > 0) return this.result('stopped', { kind: 'settings', message: `Adaptive sampling: ${ruleProblems.join('; ')}.` });
    const unreadable = await this.plan();
    if (unreadable) return this.result('stopped', unreadable);
    if (opts.cachedOnly) {
      opts.signal?.removeEventListener('abort', this.onCallerAbort);
      return this.result(this.pending.some((p) => p.missing.length > 0) ? 'incomplete' : 'done');
    }
    await this.requestMissing();
    return this.finish();
  }

  private readonly onCallerAbort = () => {
    if (this.opts.signal?.reason === 'pause') this.pausing = true;
    else this.cancel.abort(this.opts.signal?.reason);
    this.notify();
  };

  /** Wakes the workers waiting for work. */
  private readonly notify = () => {
    for (const w of this.wake.splice(0)) w();
  };

  /** Posts the progress, at most every progressIntervalMs unless `force`d. */
  private emit({ force = false }: { force?: boolean } = {}): void {
    const { progress } = this;
    const t = this.now();
    progress.elapsedMs = t - this.started;
    if (progress.state === 'running' || progress.state === 'paused') progress.state = this.pausing ? 'paused' : 'running';
    progress.etaMs = etaMs(this.fetched, progress.samples.total - progress.samples.done, progress.elapsedMs);
    progress.cost = costOf(progress.tokens, this.opts.price ?? null);
    if (force || t - this.lastEmit >= (this.opts.progressIntervalMs ?? 100)) {
      this.lastEmit = t;
      this.opts.onProgress?.(structuredClone(progress));
    }
  }

  private result(state: SamplingResult['state'], error?: StageError): SamplingResult {
    const { progress, pending, questions, opts } = this;
    progress.state = state;
    this.emit({ force: true });
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
      ...(this.rule ? { adaptive: new Map(pending.filter((p) => p.adaptive?.done).map((p) => [questions[p.qi].id, p.adaptive!.done!])) } : {}),
    };
  }

  /**
   * Phase 1, which samples are stored: one digest per question (a chunk at a time, in parallel),
   * then which samples are stored, asked in key order a slice at a time: a cache that reads key
   * ranges (store/span-reads.ts) then serves a slice of a run's questions in a few requests instead
   * of one each. Returns the error when the cache cannot be read.
   */
  private async plan(): Promise<StageError | undefined> {
    const { opts, questions, progress } = this;
    progress.samples.total = questions.length * opts.n;
    // An adaptive run's total is the most it may take until every question has stopped.
    const rounds = this.rule ? (this.rounds = new AdaptiveRounds(this.rule, questions.length, progress.samples)) : undefined;
    try {
      const bases: string[] = [];
      for (let from = 0; from < questions.length; from += KEY_PASS_CHUNK) {
        if (this.signal.aborted || this.pausing) break;
        const chunk = questions.slice(from, from + KEY_PASS_CHUNK);
        bases.push(...(await Promise.all(chunk.map((q) => questionKeyBase(opts.provider, opts.settings, this.template, q)))));
      }
      const missingOf: number[][] = new Array(bases.length);
      const roundsOf: QuestionRounds[] = new Array(bases.length);
      const byKey = bases.map((_, qi) => qi).sort((a, b) => (bases[a] < bases[b] ? -1 : bases[a] > bases[b] ? 1 : 0));
      for (let from = 0; from < byKey.length; from += STORED_SLICE) {
        const slice = byKey.slice(from, from + STORED_SLICE);
        const stored = await storedIndices(opts.cache, slice.map((qi) => bases[qi]), opts.n);
        if (rounds) {
          const started = await rounds.start(opts.cache, slice.map((qi) => bases[qi]), stored);
          slice.forEach((qi, j) => (roundsOf[qi] = started[j]));
          continue;
        }
        slice.forEach((qi, j) => {
          const missing: number[] = [];
          for (let i = 0; i < opts.n; i++) if (!stored[j][i]) missing.push(i);
          missingOf[qi] = missing;
        });
      }
      bases.forEach((base, qi) => {
        if (rounds) {
          const adaptive = roundsOf[qi];
          this.pending.push({ qi, base, missing: rounds.advance(adaptive), failures: 0, adaptive });
          return;
        }
        progress.samples.cached += opts.n - missingOf[qi].length;
        this.pending.push({ qi, base, missing: missingOf[qi], failures: 0 });
      });
    } catch (e) {
      return { kind: 'cache', message: `Could not read the sample cache: ${toStageError(e).message}` };
    }
    progress.samples.done = progress.samples.cached;
    this.emit({ force: true });
    return undefined;
  }

  /** The receipt of a stored batch: its requests and tokens, and the failures since the last one. */
  private receiptFor(batch: readonly StoredReply[]): UsageReceipt | undefined {
    if (this.opts.receiptKey === undefined) return undefined;
    const receipt: UsageReceipt = { key: this.opts.receiptKey, requests: 0, failed: this.failedSinceWrite, input: 0, output: 0 };
    this.failedSinceWrite = 0;
    for (const r of batch) {
      if (!r.request) continue;
      receipt.requests += 1;
      receipt.input += r.request.input;
      receipt.output += r.request.output;
    }
    return receipt;
  }

  /** Stores a batch of replies; a cache that cannot be written stops the run (nothing already stored is lost). */
  private async store(batch: StoredReply[]): Promise<void> {
    try {
      await this.opts.cache.put(batch.map(({ key, sample }) => ({ key, sample })), this.receiptFor(batch));
    } catch (e) {
      // The cache's own words (a full browser storage says how full and what to do).
      const why = toStageError(e).message;
      const said = /^(Could not store|The browser's storage)/.test(why) ? why : `Could not store samples: ${why}.`;
      this.fatal ??= { kind: 'cache', message: `${said} Nothing more is requested until the samples can be stored.` };
      this.stop.abort();
      return;
    }
    this.progress.samples.done += batch.length;
    this.opts.onSamples?.(batch);
    this.emit();
  }

  /** Phase 2: workers, as many as the concurrency, ask for what is missing until nothing is, or the run stops. */
  private async requestMissing(): Promise<void> {
    this.signal.addEventListener('abort', this.notify, { once: true });
    const width = Math.max(1, Math.floor(this.opts.concurrency ?? this.opts.provider.config.concurrency ?? 8));
    await Promise.all(Array.from({ length: width }, () => this.worker()));
    await this.writer.flush();
  }

  private takeChunk(): { p: Pending; indices: number[] } | undefined {
    const p = this.pending.find((x) => x.missing.length > 0 && x.failures < this.maxFailures);
    if (!p) return undefined;
    return { p, indices: p.missing.splice(0, Math.max(1, this.opts.provider.maxN(this.opts.settings))) };
  }

  private async worker(): Promise<void> {
    for (;;) {
      if (this.signal.aborted || this.pausing) return;
      const chunk = this.takeChunk();
      if (!chunk) {
        if (this.progress.requests.inFlight === 0) return this.notify();
        await new Promise<void>((resolve) => this.wake.push(resolve));
        continue;
      }
      if ((await this.request(chunk.p, chunk.indices)) === 'stop') return;
    }
  }

  /** One request for some of a question's missing samples; 'stop' when this worker is to stop. */
  private async request(p: Pending, indices: number[]): Promise<'next' | 'stop'> {
    const { progress } = this;
    const q = this.questions[p.qi];
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
        this.emit();
      }
    };
    progress.requests.inFlight++;
    if (p.adaptive) p.adaptive.inFlight++;
    try {
      const c = await this.opts.provider.completeOnce({ messages: generationMessages(fillPrompt(this.template, q)), settings: this.opts.settings, n: indices.length, signal: this.signal, onEvent });
      progress.requests.handled += failedSends;
      this.onReply(p, indices, c);
      return 'next';
    } catch (e) {
      p.missing.unshift(...indices);
      return this.onFailure(p, e, failedSends);
    } finally {
      progress.requests.inFlight--;
      if (retrying) progress.requests.retrying--;
      // A round wholly in: the rule decides the question's next round (or that it is done).
      if (p.adaptive && --p.adaptive.inFlight === 0 && p.missing.length === 0 && !p.adaptive.done) p.missing = this.rounds!.advance(p.adaptive);
      // Never throttle away the moment nothing is in flight: a pausing caller waits for it.
      this.emit({ force: progress.requests.inFlight === 0 });
      this.notify();
    }
  }

  private onReply(p: Pending, indices: number[], c: Completion): void {
    const { progress } = this;
    const q = this.questions[p.qi];
    progress.requests.done++;
    this.reachable.success();
    progress.tokens.input += c.usage.inputTokens;
    progress.tokens.output += c.usage.outputTokens;
    const got = c.replies.slice(0, indices.length);
    this.fetched += got.length;
    // Each reply's sequence log-probability kept where the provider returned token logprobs (asked only with sampling.logprobs).
    const samples = got.map((r) => withSequenceLogprob(extractSample(r.text, r.finishReason), r.logprobs));
    if (p.adaptive) this.rounds!.record(p.adaptive, indices, samples);
    const usage = { input: c.usage.inputTokens, output: c.usage.outputTokens };
    void this.writer.add(samples.map((sample, j) => ({ questionId: q.id, index: indices[j], key: keyAt(p.base, indices[j]), sample, ...(j === 0 ? { request: usage } : {}) })));
    // Indices not served go back to the front of this question's list: made up by the next request.
    p.missing.unshift(...indices.slice(got.length));
    void this.writer.flush();
  }

  /** A request that failed after its retries: weighed (the run stops, the question fails, or it is tried again). */
  private onFailure(p: Pending, e: unknown, failedSends: number): 'next' | 'stop' {
    const { progress } = this;
    const err = toStageError(e, `question ${this.questions[p.qi].id}`);
    if (err.kind === 'aborted') {
      progress.requests.handled += failedSends;
      return 'stop';
    }
    progress.requests.handled += Math.max(0, failedSends - 1);
    progress.requests.failed++;
    this.failedSinceWrite++;
    const fatal = e instanceof ProviderError && stopsRun(e) ? err : this.reachable.failure(err);
    if (fatal) return this.stopWith(fatal);
    p.error = err;
    if (err.kind !== 'bad-request') {
      p.failures++;
      return 'next';
    }
    // The provider refused this prompt: asking again gets the same answer, so the question is failed now.
    p.failures = this.maxFailures;
    if (progress.requests.done === 0 && ++this.refusedFirst >= Math.min(REFUSALS_BEFORE_STOP, this.questions.length)) {
      return this.stopWith({ ...err, message: `The first ${this.refusedFirst} question(s) were all refused, so the cause is likely the settings or the model rather than the questions: ${err.message}` });
    }
    return 'next';
  }

  private stopWith(error: StageError): 'stop' {
    this.fatal ??= error;
    this.stop.abort();
    return 'stop';
  }

  /** Phase 3: the failures after the last stored reply get a receipt of their own; the result says how the run ended. */
  private async finish(): Promise<SamplingResult> {
    const { opts, fatal } = this;
    if (this.failedSinceWrite > 0 && opts.receiptKey !== undefined && !fatal?.kind?.startsWith('cache')) {
      try {
        await opts.cache.put([], this.receiptFor([]));
      } catch {
        // The counters keep this execution's count; only a reload would lose it.
      }
    }
    opts.signal?.removeEventListener('abort', this.onCallerAbort);
    if (fatal) return this.result('stopped', fatal);
    if (this.cancel.signal.aborted) return this.result('cancelled');
    if (this.pausing) return this.result('paused');
    return this.result(this.pending.some((p) => p.missing.length > 0) ? 'incomplete' : 'done');
  }
}
