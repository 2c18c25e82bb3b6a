/**
 * Multiple-choice replies cached like samples: each reply is stored in the run's SampleCache
 * (model/sample-cache.ts) under a key derived from everything it depends on — the model (preset,
 * base URL, model name), the prompt's version (MC_PROMPT_VERSION) and wording, what the reply is
 * for, the question, the generation settings and the reply's index (the run number of a
 * stated-probability reply, the sample number of a Sem-ECE sample). A repeated multiple-choice
 * run, or one resumed after a pause, finds its replies there and requests only the missing ones.
 *
 * Failed requests are not stored: they are asked again next time. Without a cache every reply is
 * requested, as in a one-off `semece mc`.
 */
import type { ChatProvider, Completion, GenerationSettings, ProviderConfig, Reply } from '../model/provider';
import type { Sample } from '../model/rows';
import { keyAt, readQuestions, sampleKeyBase, type SampleCache } from '../model/sample-cache';
import { buildMcMessages, MC_PROMPT_VERSION, type McQuestion } from './prompt';
import { parseMcReply } from './reply-parse';

/**
 * What a reply answers: one run of the stated-probability prompt, one Sem-ECE sample, or the
 * greedy reply whose token distribution gives the logprob signal. Part of the key, so replies
 * asked for different purposes are never served for one another even when the settings agree.
 */
export type ReplyPurpose = 'stated-probability' | 'sem-ece-sample' | 'greedy';

export interface ReplyCache {
  samples: SampleCache;
  /** Called for each request slot served entirely from the cache (no request sent). */
  onCached?: () => void;
}

export interface ReplyRequest {
  question: McQuestion;
  purpose: ReplyPurpose;
  /** The reply indices wanted (a run number, or the sample numbers 0 … n−1). */
  indices: number[];
  settings: GenerationSettings;
  signal?: AbortSignal;
}

export interface Asked {
  /** Stored and newly received replies in index order; fewer than asked when the provider returned fewer or the request failed. */
  replies: Reply[];
  /** The request's completion; null when every reply came from the cache or the request failed. */
  completion: Completion | null;
  /** The request's failure (after the provider's own retries), when it failed. */
  error?: unknown;
}

/** The key base of one question's replies for one purpose under these settings (the index follows as `#i`). */
export function replyKeyBase(model: Pick<ProviderConfig, 'preset' | 'baseUrl' | 'model'>, question: McQuestion, purpose: ReplyPurpose, settings: GenerationSettings): Promise<string> {
  const prompt = `${MC_PROMPT_VERSION} ${purpose}\n${buildMcMessages(question)[0].content}`;
  return sampleKeyBase({ preset: model.preset, baseUrl: model.baseUrl, model: model.model, prompt, settings, questionId: question.id, question: question.question });
}

/** A reply as a stored sample: the text, the option letter and stated probability read from it, the logprobs. */
export function replyToSample(reply: Reply, optionCount: number): Sample {
  const parsed = parseMcReply(reply.text, optionCount);
  return {
    raw: reply.text,
    answer: parsed.ok ? parsed.letter : '',
    answerMethod: parsed.ok ? 'option-letter' : 'empty',
    confidence: parsed.ok ? parsed.probability : null,
    confidenceMethod: parsed.ok ? 'stated-probability' : 'missing',
    finishReason: reply.finishReason,
    ...(reply.logprobs ? { logprobs: reply.logprobs } : {}),
  };
}

function sampleToReply(sample: Sample): Reply {
  return { text: sample.raw, finishReason: sample.finishReason, ...(sample.logprobs ? { logprobs: sample.logprobs } : {}) };
}

/**
 * The replies at `request.indices`: those the cache holds are read from it; the others are asked
 * for in one request (n = how many are missing) and stored at the missing indices in order, so a
 * repeated run reads every reply back at the index, and in the order, it first had.
 */
export async function askReplies(provider: ChatProvider, cache: ReplyCache | undefined, request: ReplyRequest): Promise<Asked> {
  const { question, indices, settings, signal } = request;
  if (indices.length === 0) return { replies: [], completion: null };
  const messages = buildMcMessages(question);
  let stored: (Sample | undefined)[] = indices.map(() => undefined);
  let base = '';
  if (cache) {
    base = await replyKeyBase(provider.config, question, request.purpose, settings);
    const upTo = Math.max(...indices) + 1;
    const all = (await readQuestions(cache.samples, [base], upTo))[0];
    stored = indices.map((i) => all[i]);
  }
  const missing = indices.filter((_, j) => stored[j] === undefined);
  if (missing.length === 0) {
    cache?.onCached?.();
    return { replies: stored.map((s) => sampleToReply(s!)), completion: null };
  }
  let completion: Completion;
  try {
    completion = await provider.complete({ messages, n: missing.length, settings, signal });
  } catch (error) {
    return { replies: stored.flatMap((s) => (s ? [sampleToReply(s)] : [])), completion: null, error };
  }
  const received = completion.replies.slice(0, missing.length);
  if (cache && received.length > 0) {
    await cache.samples.put(received.map((reply, j) => ({ key: keyAt(base, missing[j]), sample: replyToSample(reply, question.options.length) })));
  }
  // Received replies fill the missing indices in order; any the provider did not return stay missing.
  const fresh = new Map(received.map((reply, j) => [missing[j], reply]));
  const replies = indices.flatMap((i, j) => {
    const s = stored[j];
    if (s) return [sampleToReply(s)];
    const r = fresh.get(i);
    return r ? [r] : [];
  });
  return { replies, completion };
}
