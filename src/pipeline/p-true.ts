/**
 * p(True) requests (the prompt and the reading: p-true-read.ts), cached like samples: each reply
 * is stored in the run's SampleCache under a key of its own (P_TRUE_PROMPT_VERSION and the filled
 * p(True) prompt, which holds the question and the proposed answer, the settings below, the
 * model), so a repeated or resumed run asks for nothing already stored and pays nothing. With a
 * `receiptKey`, each stored batch carries its request's usage receipt (model/sample-cache.ts), as
 * the samples' do, so a run's counters read back from the cache after a reload include p(True).
 *
 * Per question: reply 0 is asked with logprobs; when it carries a verdict's token distribution,
 * that is the value ('logprobs', one request). Otherwise the replies 1 … samples−1 are asked too,
 * and the share of "True" among all of them is the value ('sampled'). A question whose replies
 * hold no verdict has no p(True) (null), and one whose requests failed is listed with its error.
 */
import type { GenerationSettings, Reply, SamplingProvider } from '../model/provider';
import type { Sample, SampledRow, StageError } from '../model/rows';
import { keyAt, sampleKeyBase, type SampleCache, type UsageReceipt } from '../model/sample-cache';
import type { PTrueSpec } from '../model/run-spec';
import { ProviderError, stopsRun } from '../providers/errors';
import { errorMessage } from '../model/app-error';
import { brainstormedAnswers, P_TRUE_PROMPT_VERSION, pTrueFromLogprobs, pTrueFromVerdicts, pTrueMessages, proposedAnswer, verdictOfText, type PTrueMethod } from './p-true-read';

/**
 * The settings of every p(True) request: a verdict is a word or two; sampled at temperature 1 so
 * the replies' verdicts are draws from the model's distribution; the top 20 alternatives of each
 * token (OpenAI's most) for the logprob read.
 */
export const P_TRUE_SETTINGS: GenerationSettings = Object.freeze({ temperature: 1, maxTokens: 8, logprobs: true, topLogprobs: 20 });

/** Prompt tokens of a p(True) request beyond the question and the answers (the cost estimate's count). */
export const P_TRUE_PROMPT_OVERHEAD_TOKENS = 30;

export interface PTrueQuestion {
  id: string;
  question: string;
  /** The sampled answers, one per sample. */
  answers: readonly (string | null)[];
}

export type PTrueOutcome =
  | { id: string; p_true: number | null; method: PTrueMethod | null; proposed: string }
  | { id: string; error: StageError };

export interface PTrueUsage {
  /** Requests sent (each answered); failed ones are in `failed` (one stopped by a pause or cancel is neither). */
  requests: number;
  failed: number;
  /** Replies read from the cache instead of asked for. */
  cached: number;
  tokens: { input: number; output: number };
}

/**
 * Where p(True) is asked, as its keys need it; with nothing to send with, only stored replies are
 * read (a batch run's: src/batch/p-true-batches.ts sends them, this module reads them).
 */
export interface PTrueModel {
  config: Pick<SamplingProvider['config'], 'preset' | 'baseUrl' | 'model' | 'concurrency'>;
}

export interface PTrueOptions {
  /** A SamplingProvider asks what is not stored; a PTrueModel only reads (as `cachedOnly`). */
  provider: SamplingProvider | PTrueModel;
  cache: SampleCache;
  spec: PTrueSpec;
  questions: readonly PTrueQuestion[];
  /** Requests in flight at once (default the provider's concurrency, or 8). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Send nothing: a question whose replies are not all stored gets no p(True) (a partial report). */
  cachedOnly?: boolean;
  /** Where the requests' usage receipts are added up with the replies (the run's model, as its samples'); none without. */
  receiptKey?: string;
  onDone?: (done: number, usage: PTrueUsage) => void;
}

/** Why a question has no p(True) when `cachedOnly` and its replies are not stored yet. */
export const P_TRUE_NOT_CACHED = 'p-true-not-cached';

/** The p(True) prompt of one question, with its proposed answer. */
export function pTruePrompt(q: PTrueQuestion, spec: PTrueSpec): { proposed: string; messages: ReturnType<typeof pTrueMessages> } {
  const proposed = proposedAnswer(q.answers);
  return { proposed, messages: pTrueMessages(q.question, proposed, spec.brainstorm ? brainstormedAnswers(q.answers, proposed) : undefined) };
}

/**
 * The key base of a question's p(True) replies (reply i is keyAt(base, i)): the model, the filled
 * prompt and the settings, so the direct and the batch path store and find the same replies.
 */
export function pTrueKeyBase(model: { preset: string; baseUrl: string; model: string }, q: Pick<PTrueQuestion, 'id' | 'question'>, messages: ReturnType<typeof pTrueMessages>): Promise<string> {
  const { preset, baseUrl, model: name } = model;
  return sampleKeyBase({ preset, baseUrl, model: name, prompt: `${P_TRUE_PROMPT_VERSION}\n${messages[0].content}`, settings: P_TRUE_SETTINGS, questionId: q.id, question: q.question });
}

/** A reply as stored: its text, its verdict as the answer, its logprobs (the batch path stores its replies the same way). */
export function replyToSample(r: Reply): Sample {
  const v = verdictOfText(r.text);
  return {
    raw: r.text,
    answer: v === undefined ? '' : v ? 'True' : 'False',
    answerMethod: v === undefined ? 'empty' : 'answer-line',
    confidence: null,
    confidenceMethod: 'missing',
    finishReason: r.finishReason,
    ...(r.logprobs ? { logprobs: r.logprobs } : {}),
  };
}

const sampleToReply = (s: Sample): Reply => ({ text: s.raw, finishReason: s.finishReason, ...(s.logprobs ? { logprobs: s.logprobs } : {}) });

function stageError(e: unknown, where: string): StageError {
  if (e instanceof ProviderError) return { ...e.toInfo(), status: e.status ?? undefined, where };
  return { kind: 'internal', message: errorMessage(e), where };
}

/** Every question's p(True), in order; stops asking (the rest listed with the error) on an error that stops a run (auth, quota). */
export async function askPTrue(opts: PTrueOptions): Promise<{ outcomes: PTrueOutcome[]; usage: PTrueUsage; fatal?: StageError }> {
  const usage: PTrueUsage = { requests: 0, failed: 0, cached: 0, tokens: { input: 0, output: 0 } };
  const receipts = receiptWriter(opts);
  const outcomes: PTrueOutcome[] = new Array(opts.questions.length);
  let next = 0;
  let done = 0;
  let fatal: StageError | undefined;
  const width = Math.max(1, Math.floor(opts.concurrency ?? opts.provider.config.concurrency ?? 8));
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= opts.questions.length) return;
      const q = opts.questions[i];
      if (fatal || opts.signal?.aborted) {
        outcomes[i] = { id: q.id, error: fatal ?? { kind: 'aborted', message: 'p(True) was stopped.', where: `question ${q.id}` } };
        continue;
      }
      try {
        outcomes[i] = await oneQuestion(opts, q, usage, receipts);
      } catch (e) {
        const err = (e as { notCached?: boolean }).notCached ? { kind: P_TRUE_NOT_CACHED, message: 'p(True) not asked yet.', where: `question ${q.id}` } : stageError(e, `p(True), question ${q.id}`);
        if (e instanceof ProviderError && stopsRun(e)) fatal ??= err;
        outcomes[i] = { id: q.id, error: err };
      }
      opts.onDone?.(++done, usage);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  await receipts.finish();
  return { outcomes, usage, ...(fatal ? { fatal } : {}) };
}

/**
 * The receipts of p(True)'s requests, as sampling.ts writes the samples': each stored reply batch
 * carries its request's tokens and the failures since the last write; failures after the last
 * one get a receipt of their own at the end. Without a receiptKey, nothing is written.
 */
function receiptWriter(opts: PTrueOptions) {
  let failedSinceWrite = 0;
  const take = (requests: number, input: number, output: number): UsageReceipt | undefined => {
    if (opts.receiptKey === undefined) return undefined;
    const receipt = { key: opts.receiptKey, requests, failed: failedSinceWrite, input, output };
    failedSinceWrite = 0;
    return receipt;
  };
  return {
    failed: () => void (failedSinceWrite += 1),
    /** The receipt of one answered request, to store with its replies. */
    answered: (input: number, output: number) => take(1, input, output),
    async finish() {
      if (failedSinceWrite === 0 || opts.receiptKey === undefined) return;
      try {
        await opts.cache.put([], take(0, 0, 0));
      } catch {
        // The live counters keep this execution's failures; only a reload would lose them.
      }
    },
  };
}

async function oneQuestion(opts: PTrueOptions, q: PTrueQuestion, usage: PTrueUsage, receipts: ReturnType<typeof receiptWriter>): Promise<PTrueOutcome> {
  const { provider, cache, spec } = opts;
  const { proposed, messages } = pTruePrompt(q, spec);
  // No answer to judge: nothing is asked.
  if (proposed === '') return { id: q.id, p_true: null, method: null, proposed };
  const base = await pTrueKeyBase(provider.config, q, messages);
  const wanted = Math.max(1, spec.samples);
  const stored = await cache.get(Array.from({ length: wanted }, (_, i) => keyAt(base, i)));
  const replies: (Reply | undefined)[] = stored.map((s) => (s ? sampleToReply(s) : undefined));
  const counted = new Set<number>();

  // The replies at `indices` not stored yet, asked a request (of up to the provider's n) at a time.
  const fill = async (indices: number[]) => {
    const missing = indices.filter((i) => replies[i] === undefined);
    if (missing.length > 0 && (opts.cachedOnly || !('completeOnce' in provider))) throw Object.assign(new Error('p(True) not asked yet.'), { notCached: true });
    for (const i of indices) {
      if (stored[i] === undefined || counted.has(i)) continue;
      counted.add(i);
      usage.cached += 1;
    }
    while (missing.length > 0) {
      const sender = provider as SamplingProvider;
      const take = missing.splice(0, Math.max(1, sender.maxN(P_TRUE_SETTINGS)));
      let c;
      try {
        c = await sender.completeOnce({ messages, settings: P_TRUE_SETTINGS, n: take.length, signal: opts.signal });
      } catch (e) {
        // A request stopped by a pause or cancel did not fail (sampling counts it neither).
        if (!(e instanceof ProviderError && e.kind === 'aborted')) {
          usage.failed += 1;
          receipts.failed();
        }
        throw e;
      }
      usage.requests += 1;
      usage.tokens.input += c.usage.inputTokens;
      usage.tokens.output += c.usage.outputTokens;
      const got = c.replies.slice(0, take.length);
      const receipt = receipts.answered(c.usage.inputTokens, c.usage.outputTokens);
      if (got.length === 0) {
        // Paid for though nothing came back: its receipt is still stored.
        if (receipt) await cache.put([], receipt);
        throw new Error('The provider returned no reply to the p(True) request.');
      }
      await cache.put(got.map((r, j) => ({ key: keyAt(base, take[j]), sample: replyToSample(r) })), receipt);
      got.forEach((r, j) => (replies[take[j]] = r));
      // Indices not served go back: asked by the next request.
      missing.unshift(...take.slice(got.length));
    }
  };

  await fill([0]);
  const fromLogprobs = pTrueFromLogprobs(replies[0]!.logprobs);
  if (fromLogprobs !== undefined) return { id: q.id, p_true: fromLogprobs, method: 'logprobs', proposed };
  await fill(Array.from({ length: wanted }, (_, i) => i));
  const sampled = pTrueFromVerdicts(replies as Reply[]);
  return { id: q.id, p_true: sampled?.value ?? null, method: sampled ? 'sampled' : null, proposed };
}

/** What asking p(True) for a set of rows came to: the requests, how each value was read, the questions that failed. */
export interface PTrueSummary {
  requests: number;
  /** Requests that failed (after their retries); a question's failure is in `failed`. */
  failedRequests: number;
  failed: { id: string; reason: string }[];
  fromCache: number;
  tokens: { input: number; output: number };
  /** Questions whose p(True) was read from logprobs, from sampled verdicts, or from neither (no verdict, or no answer). */
  methods: { logprobs: number; sampled: number; none: number };
  /** An error that stopped the asking (auth, quota): the questions after it are in `failed`. */
  fatal?: StageError;
}

/**
 * p(True) of each row, written into it (p_true and p_true_method; a question that failed, or
 * was not asked in a partial report, gets neither): what `semece sample --p-true` and the app's
 * sample stage do after sampling.
 */
export async function addPTrue(rows: SampledRow[], opts: Omit<PTrueOptions, 'questions'>): Promise<PTrueSummary> {
  const asked = await askPTrue({ ...opts, questions: rows.map((r) => ({ id: r.id, question: r.question, answers: r.answer_extracted })) });
  const methods = { logprobs: 0, sampled: 0, none: 0 };
  const failed: { id: string; reason: string }[] = [];
  asked.outcomes.forEach((o, i) => {
    if ('error' in o) {
      if (o.error.kind !== P_TRUE_NOT_CACHED) failed.push({ id: o.id, reason: o.error.message });
      return;
    }
    rows[i].p_true = o.p_true;
    if (o.method) rows[i].p_true_method = o.method;
    methods[o.method ?? 'none'] += 1;
  });
  const { usage } = asked;
  return { requests: usage.requests, failedRequests: usage.failed, failed, fromCache: usage.cached, tokens: usage.tokens, methods, ...(asked.fatal ? { fatal: asked.fatal } : {}) };
}

/** The summary in words, for a run's notes. */
export function pTrueNote(s: PTrueSummary): string {
  const read = [s.methods.logprobs > 0 ? `${s.methods.logprobs} from the verdict's logprobs` : '', s.methods.sampled > 0 ? `${s.methods.sampled} from sampled verdicts` : '', s.methods.none > 0 ? `${s.methods.none} with no verdict` : ''].filter(Boolean);
  return `p(True): ${read.length > 0 ? read.join(', ') : 'none read'}; ${s.requests} request(s), ${s.fromCache} repl${s.fromCache === 1 ? 'y' : 'ies'} from the cache${s.failed.length > 0 ? `; ${s.failed.length} question(s) failed (${s.failed[0].reason})` : ''}.`;
}
