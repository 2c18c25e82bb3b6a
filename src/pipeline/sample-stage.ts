/**
 * The run's sample stage over the providers' orchestrator (sampling.ts): one provider per model,
 * its counters mapped to the run meter, failed and retried requests reported with their cause,
 * and a pause that lets requests in flight finish and be stored before stopping, so nothing
 * already paid for is thrown away. An adaptive run (sampling.adaptive) samples in rounds; each
 * question's row holds the samples the rule used, with its selection block (selection_samples).
 */
import { createProvider } from '../providers/create-provider';
import { modelOnProvider } from '../providers/presets';
import type { GenerationSettings, ProviderConfig, ProviderErrorInfo, RequestEvent, SamplingProvider } from '../model/provider';
import { questionKeyBase, runSampling, type SamplingResult, type StoredReply } from './sampling';
import { readQuestions } from '../model/sample-cache';
import { UNREACHABLE_KIND } from './unreachable';
import { DEFAULT_GENERATION_PROMPT } from './prompts';
import { reportDetail } from './report-detail';
import { addPTrue, pTrueNote, type PTrueUsage } from './p-true';
import { rowSequenceLogprobs } from './sequence-logprob';
import { samplingSettingsOf } from './sample-keys';

import { costOf, type Price } from '../model/cost';
import type { ProgressCounters } from '../model/run-spec';
import type { SampleStage, SampleStageArgs } from './stage-ports';
import { firstRowPerId, type Question, type Result, type Sample, type SampledRow, type StageError } from '../model/rows';

/** What a row keeps of a sample. */
type RowSample = Pick<Sample, 'raw' | 'answer' | 'confidence' | 'sequenceLogprob'>;

/**
 * The same strings with each distinct one held once: answers read back from IndexedDB are each
 * a fresh copy, and a question's 50 samples have a handful of distinct answers, so at paper
 * scale this keeps a few hundred thousand strings in the run worker instead of 2 million.
 */
function oneCopyEach(values: string[]): string[] {
  const held = new Map<string, string>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const first = held.get(v);
    if (first === undefined) held.set(v, v);
    else values[i] = first;
  }
  return values;
}

const asStageError = (e: ProviderErrorInfo, message = e.message): StageError => ({ ...e, status: e.status ?? undefined, message });

/**
 * Passes every request event to the orchestrator, and tells apart what failed from what was
 * handled: a retry is handled; a failed request is handled when the call still succeeds (the
 * n-probe, or a refused setting, sent it again another way), else the call's last failure is the
 * error. A request cancelled by a pause or cancel is neither.
 */
function listening(provider: SamplingProvider, report: { error(e: StageError): void; handled(e: StageError): void }): SamplingProvider {
  return {
    config: provider.config,
    complete: (r) => provider.complete(r),
    maxN: (s) => provider.maxN(s),
    effectiveSettings: (s, n) => provider.effectiveSettings(s, n),
    notes: () => provider.notes(),
    async completeOnce(r) {
      const failures: ProviderErrorInfo[] = [];
      const onEvent = (e: RequestEvent) => {
        r.onEvent?.(e);
        if (e.type === 'retrying') report.handled(asStageError(e.error, `${e.error.message} (retried after ${Math.round(e.delayMs)} ms)`));
        else if (e.type === 'failed' && e.error.kind !== 'aborted') failures.push(e.error);
      };
      try {
        const result = await provider.completeOnce({ ...r, onEvent });
        for (const f of failures) report.handled(asStageError(f, `${f.message} (sent again another way)`));
        return result;
      } catch (e) {
        const last = failures.pop();
        for (const f of failures) report.handled(asStageError(f, `${f.message} (sent again another way)`));
        if (last) report.error(asStageError(last));
        throw e;
      }
    },
  };
}

/** The row's sequence_logprobs where every sample has one, else nothing. */
function withRowLogprobs(samples: readonly RowSample[]): { sequence_logprobs?: number[] } {
  const lp = rowSequenceLogprobs(samples);
  return lp ? { sequence_logprobs: lp } : {};
}

/** Questions read back from the cache at once (one range read each, one transaction). */
const READ_CHUNK = 256;

export const sampleWithProviders: SampleStage = (args) => sampleWith(createProvider, args);

/**
 * The stage over any provider `make` builds from the model's config (the in-browser model's
 * provider, built over its generation worker, is one): its own concurrency, when it sets one
 * (one batch at a time for an in-page model), bounds the requests in flight.
 */
export async function sampleWith(make: (config: ProviderConfig) => SamplingProvider, args: SampleStageArgs): ReturnType<SampleStage> {
  const { dataset, sampling } = args;
  // Shown with a stopped or failed stage: the provider by its display name, never its id.
  const where = modelOnProvider(args.model.preset, args.model.model);
  const provider = listening(make({ ...args.model, concurrency: sampling.concurrency }), { error: (e) => args.onError(e), handled: (e) => args.onHandled?.(e) });
  const settings = samplingSettingsOf(sampling);
  const unique = firstRowPerId(dataset.questions);
  const detail = reportDetail(unique.length * sampling.n);
  const keepRaw = detail.detail === 'raw';
  const fetched = fetchedSamples(sampling.n, keepRaw);

  const result = await runSampling({
    questions: dataset.questions,
    provider,
    settings,
    n: sampling.n,
    ...(sampling.adaptive ? { adaptive: sampling.adaptive } : {}),
    promptTemplate: sampling.prompt,
    cache: args.cache,
    // A pause (reason 'pause') lets requests in flight finish and be stored; a cancel aborts them.
    signal: args.signal,
    price: args.price,
    concurrency: provider.config.concurrency ?? sampling.concurrency,
    onProgress: args.onCounters,
    onSamples: fetched.add,
    // Every change (the caller throttles what it posts).
    progressIntervalMs: 0,
    cachedOnly: args.cachedOnly,
    receiptKey: args.receiptKey,
  });
  args.onCounters(result.progress);
  for (const note of result.notes) args.onNote(note);
  args.onEffective?.(result.effective);

  const ended = samplingEnd(result, args, unique.length, where);
  if (!ended.ok) return ended;
  const failed = ended.value;
  const failedIds = new Set(args.cachedOnly ? result.incomplete.map((x) => x.questionId) : failed.map((f) => f.id));
  if (detail.note) args.onNote(detail.note);
  const sampledOnes = unique.filter((q) => !failedIds.has(q.id));
  const rows = await sampledRows(sampledOnes, fetched, { args, provider, settings, keepRaw, keyBases: result.keyBases, adaptive: result.adaptive });
  if (sampling.pTrue) {
    // p(True) after sampling, where chosen (p-true.ts): its requests counted with the samples' as
    // they are answered, and its receipts stored under the same key, so a reload keeps them.
    const p = await addPTrue(rows, {
      provider,
      cache: args.cache,
      spec: sampling.pTrue,
      concurrency: provider.config.concurrency ?? sampling.concurrency,
      signal: args.signal,
      cachedOnly: args.cachedOnly,
      receiptKey: args.receiptKey,
      onDone: (_, usage) => args.onCounters(withPTrue(result.progress, usage, args.price)),
    });
    args.onCounters(withPTrue(result.progress, { requests: p.requests, failed: p.failedRequests, tokens: p.tokens }, args.price));
    args.onNote(pTrueNote(p));
    // Paused or cancelled while asking: stopped like sampling (a resume asks only what is not stored).
    if (args.signal.aborted) return { ok: false, error: { kind: 'aborted', message: 'Sampling was stopped.', where } };
    if (p.fatal) return { ok: false, error: { ...p.fatal, where, message: `p(True) stopped: ${p.fatal.message} The samples and p(True) replies so far are kept: press Resume.` } };
  }
  return { ok: true, value: { rows, failed, ...(args.cachedOnly ? { unsampled: result.incomplete.length } : {}) } };
}

/** The sampling's counters with p(True)'s requests, failures, tokens and their cost added. */
function withPTrue(sampled: ProgressCounters, usage: Pick<PTrueUsage, 'requests' | 'failed' | 'tokens'>, price: Price | null): ProgressCounters {
  const counters = structuredClone(sampled);
  counters.requests.done += usage.requests;
  counters.requests.failed += usage.failed;
  counters.tokens.input += usage.tokens.input;
  counters.tokens.output += usage.tokens.output;
  counters.cost = costOf(counters.tokens, price);
  return counters;
}

/**
 * What this execution fetched, as the rows need it, so a question sampled wholly now is not
 * read back from the cache; only questions with samples from an earlier execution are.
 */
function fetchedSamples(n: number, keepRaw: boolean) {
  const held = new Map<string, { samples: RowSample[]; count: number }>();
  return {
    add(batch: StoredReply[]) {
      for (const { questionId, index, sample } of batch) {
        let question = held.get(questionId);
        if (!question) held.set(questionId, (question = { samples: new Array<RowSample>(n), count: 0 }));
        if (question.samples[index] === undefined) question.count += 1;
        question.samples[index] = { raw: keepRaw ? sample.raw : '', answer: sample.answer, confidence: sample.confidence, ...(sample.sequenceLogprob !== undefined ? { sequenceLogprob: sample.sequenceLogprob } : {}) };
      }
    },
    /** The question's samples (slots 0..count−1, n by default) when every one of them was fetched in this execution. */
    complete(id: string, count = n): RowSample[] | undefined {
      const question = held.get(id);
      if (!question || question.count < count) return undefined;
      if (count === n) return question.count === n ? question.samples : undefined;
      for (let i = 0; i < count; i++) if (question.samples[i] === undefined) return undefined;
      return question.samples.slice(0, count);
    },
  };
}

/**
 * How sampling ended, as the stage says it: a stop or a failure of the whole stage, or the
 * questions still short of samples, failed with their reason (the others go on to be scored).
 */
function samplingEnd(result: SamplingResult, args: SampleStageArgs, uniqueCount: number, where: string): Result<{ id: string; reason: string }[]> {
  if (result.state === 'cancelled' || result.state === 'paused') return { ok: false, error: { kind: 'aborted', message: 'Sampling was stopped.', where } };
  if (result.state === 'stopped' && result.error?.kind === UNREACHABLE_KIND) {
    return { ok: false, error: { ...result.error, where, message: `${result.error.message} The samples so far are kept: press Resume once the server can be reached.` } };
  }
  if (result.state === 'stopped') return { ok: false, error: result.error ?? { kind: 'stopped', message: 'Sampling stopped.', where } };
  if (args.cachedOnly) {
    // A partial report: questions still short of samples are not failures, only not done yet.
    if (result.incomplete.length >= uniqueCount) return { ok: false, error: { kind: 'nothing-complete', message: 'No question has all its samples yet, so there is nothing to score. Resume the run first.', where } };
  }
  const failed = (args.cachedOnly ? [] : result.incomplete).map((x) => ({
    id: x.questionId,
    reason: x.refused ? `the provider refused this question: ${x.error?.message ?? 'no reason given'}` : `${x.missing} sample(s) missing after repeated failures${x.error ? `: ${x.error.message}` : ''}`,
  }));
  if (failed.length > 0 && failed.length === new Set(args.dataset.questions.map((q) => q.id)).size) {
    const first = result.incomplete[0];
    return {
      ok: false,
      error: { kind: first?.error?.kind ?? 'incomplete', retryable: !first?.refused, where, message: `Every question failed to sample, so there is nothing to score. First cause: ${first?.error?.message ?? 'unknown'}` },
    };
  }
  return { ok: true, value: failed };
}

/**
 * The rows of the sampled questions, in the dataset's order. A question fetched wholly in this
 * execution is built from memory; any other has each stored sample read once, straight into its
 * row. Only what the report needs is kept.
 */
async function sampledRows(
  sampledOnes: Question[],
  fetched: ReturnType<typeof fetchedSamples>,
  {
    args,
    provider,
    settings,
    keepRaw,
    keyBases,
    adaptive,
  }: { args: SampleStageArgs; provider: SamplingProvider; settings: GenerationSettings; keepRaw: boolean; keyBases: Map<string, string>; adaptive?: SamplingResult['adaptive'] },
): Promise<SampledRow[]> {
  const { sampling } = args;
  const label = `${args.model.preset}/${args.model.model}`;
  const template = sampling.prompt ?? DEFAULT_GENERATION_PROMPT;
  const rowOf = (q: Question, samples: RowSample[]): SampledRow => ({
    id: q.id,
    question: q.question,
    gold_answer: q.answer,
    ...(q.aliases ? { gold_answer_aliases: q.aliases } : {}),
    model: label,
    n_samples: samples.length,
    ...(adaptive ? { selection_samples: adaptive.get(q.id)!.selection } : {}),
    results: keepRaw ? samples.map((s) => s.raw) : [],
    answer_extracted: oneCopyEach(samples.map((s) => s.answer)),
    confidence_verbalized: samples.map((s) => s.confidence),
    ...withRowLogprobs(samples),
  });
  const rowAt: SampledRow[] = new Array(sampledOnes.length);
  const toRead: number[] = [];
  sampledOnes.forEach((q, i) => {
    const samples = fetched.complete(q.id, adaptive?.get(q.id)!.samples);
    if (samples) rowAt[i] = rowOf(q, samples);
    else toRead.push(i);
  });
  const baseOf = new Map<number, string>();
  for (let from = 0; from < toRead.length; from += READ_CHUNK) {
    const chunk = toRead.slice(from, from + READ_CHUNK);
    const bases = await Promise.all(chunk.map(async (i) => keyBases.get(sampledOnes[i].id) ?? questionKeyBase(provider, settings, template, sampledOnes[i])));
    chunk.forEach((i, j) => baseOf.set(i, bases[j]));
  }
  // Read in key order, a chunk at a time: a cache that reads key ranges (store/span-reads.ts)
  // serves each chunk of a run's questions in a few requests; the rows keep the dataset's order.
  toRead.sort((a, b) => (baseOf.get(a)! < baseOf.get(b)! ? -1 : baseOf.get(a)! > baseOf.get(b)! ? 1 : 0));
  for (let from = 0; from < toRead.length; from += READ_CHUNK) {
    const chunk = toRead.slice(from, from + READ_CHUNK);
    const stored = await readQuestions(args.cache, chunk.map((i) => baseOf.get(i)!), sampling.n);
    // An adaptive question's samples are its first slots (later ones, cached by another run, are not its own).
    const used = (i: number) => adaptive?.get(sampledOnes[i].id)!.samples ?? sampling.n;
    chunk.forEach((i, j) => (rowAt[i] = rowOf(sampledOnes[i], stored[j].slice(0, used(i)).filter((x): x is Sample => x !== undefined))));
  }
  return [...rowAt];
}
