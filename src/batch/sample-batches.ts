/**
 * A run's sampling through a batch service, end to end: plan what the cache lacks, submit it in
 * parts within the service's limits, poll each batch with backoff, store every result under its
 * sample key, and then deal with what did not come back:
 *  - an expired batch keeps its completed part; the rest goes into a new batch (next round);
 *  - requests that failed inside a batch are fetched through the providers' normal interactive
 *    path when a provider is given (runSampling asks only for what is still missing), else listed.
 * Batches already submitted (ids from an earlier, interrupted session) are collected first, so
 * repeating a command after a crash never pays for the same samples twice.
 *
 * An adaptive run's rounds are successive batches: each holds every question's current round
 * (request-set.ts replays the stopping rule over what is stored), and the next is planned once it
 * is collected, until the rule has stopped every question or a round stores nothing new.
 */
import { runSampling, type SamplingResult } from '../pipeline/sampling.ts';
import type { SampleCache } from '../model/sample-cache.ts';
import type { StageError } from '../model/rows.ts';
import { ProviderError } from '../providers/errors.ts';
import type { SamplingProvider } from '../model/provider.ts';
import type { BatchStatus } from './service.ts';
import { type IngestReport, ingestSampleResults } from './ingest.ts';
import { inParts } from './split-by-limits.ts';
import { pollUntilEnded } from './poll.ts';
import type { BatchRoundOptions } from './batch-rounds.ts';
import type { SampleRequestSet } from './request-set.ts';
import type { FailedRequest } from './outcomes.ts';
import { errorMessage } from '../model/app-error.ts';

export type BatchEvent =
  | { type: 'round'; round: number }
  | { type: 'submitted'; status: BatchStatus; requests: number }
  | { type: 'status'; status: BatchStatus }
  | { type: 'ingested'; report: IngestReport }
  | { type: 'interactive'; missing: number };

/** maxRounds: rounds that re-request what expired (default 3; an adaptive run's rule rounds are not counted). */
export interface SubmitBatchOptions extends BatchRoundOptions {
  set: SampleRequestSet;
  /** When given, samples still missing after the batches are fetched interactively. */
  interactive?: { provider: SamplingProvider; concurrency?: number };
  onEvent?: (e: BatchEvent) => void;
}

export interface SubmitBatchResult {
  state: 'done' | 'incomplete' | 'failed' | 'cancelled';
  batches: { id: string; phase: string; raw: string; counts: BatchStatus['counts'] }[];
  ingests: IngestReport[];
  /** Failed requests whose samples are still missing at the end (listed for the user). */
  failed: FailedRequest[];
  /** Requests that failed inside a batch, recovered or not. */
  failedInBatch: number;
  expiredInBatch: number;
  interactive?: SamplingResult;
  /** Samples still missing at the end. */
  missing: number;
  error?: StageError;
}

function stageError(e: unknown, where: string): StageError {
  if (e instanceof ProviderError) return { kind: e.kind, message: e.message, status: e.status ?? undefined, retryable: e.retryable, where };
  return { kind: 'batch', message: errorMessage(e), where };
}

/** Samples the cache still lacks for this request set. */
export async function missingSamples(set: SampleRequestSet, cache: SampleCache): Promise<number> {
  let missing = 0;
  for await (const r of set.requests(cache)) missing += r.count;
  return missing;
}

export async function submitSampleBatches(opts: SubmitBatchOptions): Promise<SubmitBatchResult> {
  const { set, service, cache, signal } = opts;
  const result: SubmitBatchResult = { state: 'done', batches: [], ingests: [], failed: [], failedInBatch: 0, expiredInBatch: 0, missing: 0 };
  const failures: FailedRequest[] = [];
  const emit = (e: BatchEvent) => opts.onEvent?.(e);

  /** Polls one batch to its end and stores its results; true when part of it expired. */
  // Samples stored by the batches collected so far: an adaptive round that adds none stops the rounds.
  let storedSoFar = 0;
  const collect = async (first: BatchStatus): Promise<boolean> => {
    const status = await pollUntilEnded(service, first, { ...opts.poll, signal, onStatus: (s) => emit({ type: 'status', status: s }) });
    result.batches.push({ id: status.id, phase: status.phase, raw: status.raw, counts: status.counts });
    const files = await service.results(status, signal);
    if (status.phase === 'failed' && files.length === 0) {
      throw Object.assign(new Error(`Batch ${status.id} failed: ${status.message ?? 'no reason given'}`), { batchFailed: true });
    }
    let expired = status.phase === 'expired';
    for (const f of files) {
      const report = await ingestSampleResults(set, f.lines, { file: f.name, cache, signal });
      storedSoFar += report.stored;
      result.ingests.push(report);
      emit({ type: 'ingested', report });
      for (const x of report.failed) {
        failures.push(x);
        if (x.expired) {
          result.expiredInBatch++;
          expired = true;
        } else result.failedInBatch++;
      }
    }
    await opts.onCollected?.(status.id);
    return expired;
  };

  try {
    let expired = false;
    for (const id of opts.pendingIds ?? []) expired = (await collect(await service.status(id, signal))) || expired;
    const maxRounds = opts.maxRounds ?? 3;
    const adaptive = set.rule !== undefined;
    let retries = 0;
    let storedBefore = storedSoFar;
    // A first round always runs; later rounds re-request what expired (at most maxRounds rounds of
    // those) or, for an adaptive run, carry each question's next round while the last one stored some.
    // collectOnly: no round at all (nothing is submitted).
    for (let round = 1; !opts.collectOnly; round++) {
      if (round > 1) {
        if (expired) {
          if (++retries >= maxRounds) break;
        } else if (!adaptive || storedSoFar === storedBefore) break;
      }
      storedBefore = storedSoFar;
      emit({ type: 'round', round });
      expired = false;
      const submitted: BatchStatus[] = [];
      // Each part is submitted as soon as it is built, then dropped: only its id is kept.
      for await (const part of inParts(set.api, set.requests(cache), opts.limits)) {
        if (signal?.aborted) break;
        const status = await service.submit(part.map((p) => p.line), signal);
        await opts.onSubmitted?.(status.id, part.length);
        emit({ type: 'submitted', status, requests: part.length });
        submitted.push(status);
      }
      if (submitted.length === 0) break;
      for (const s of submitted) expired = (await collect(s)) || expired;
    }
  } catch (e) {
    if (signal?.aborted) return { ...result, state: 'cancelled', failed: failures, missing: await missingSamples(set, cache) };
    result.state = 'failed';
    result.error = stageError(e, `${service.api} batch`);
  }

  let missing = await missingSamples(set, cache);
  if (missing > 0 && opts.interactive && !signal?.aborted && result.state !== 'failed') {
    emit({ type: 'interactive', missing });
    result.interactive = await runSampling({
      questions: set.questions, provider: opts.interactive.provider, settings: set.spec.settings, n: set.spec.n,
      ...(set.spec.adaptive ? { adaptive: set.spec.adaptive } : {}),
      promptTemplate: set.spec.promptTemplate, cache, signal, concurrency: opts.interactive.concurrency,
    });
    missing = await missingSamples(set, cache);
  }
  result.missing = missing;
  // Listed: failures whose samples are still not in the cache.
  const byId = new Map(set.questions.map((q) => [q.id, q]));
  for (const f of failures) {
    const q = byId.get(f.questionId);
    if (!q) continue;
    const stored = await cache.get(await set.keysOf(q, f.indices[0], f.indices.length));
    if (stored.some((s) => s === undefined)) result.failed.push(f);
  }
  if (result.state === 'done' && missing > 0) result.state = signal?.aborted ? 'cancelled' : 'incomplete';
  return result;
}
