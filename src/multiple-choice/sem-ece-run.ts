/**
 * Sampling for Sem-ECE on multiple-choice questions: n replies per question to the same
 * multiple-choice prompt at the sampling temperature, plus, when logprobs are wanted, one greedy
 * (temperature 0) reply whose token distribution gives the logprob signal. The rows it returns are
 * the authors' clustered and graded rows with the extra signals (sem-ece-question.ts). The rows are
 * scored, with every signal compared, once, by the score stage (sem-ece-report.ts): the run's report
 * holds that comparison, and `semece mc` prints it from there.
 */
import type { Result, StageError } from '../model/rows';
import type { ChatProvider, ProviderErrorInfo, TokenLogprob } from '../model/provider';
import type { McQuestion } from './prompt';
import { askReplies, type ReplyCache } from './reply-cache';
import { mcSemEceQuestion, type McSemQuestion } from './sem-ece-question';
import { pairwiseMean } from '../core/pairwise';
import { logprobAbsence } from './logprob-absence';

export interface McSemOptions {
  samples: number;
  temperature: number;
  maxTokens: number;
  logprobs: boolean;
  model: string;
  signal?: AbortSignal;
  /** Where replies are kept between runs: stored samples and greedy replies are read back instead of requested. */
  cache?: ReplyCache;
}

export interface McSemResult {
  questions: McSemQuestion[];
  accuracy: number;
  /** Samples with no readable option, over all questions. */
  noOption: number;
  /** Sample requests that failed (those samples are missing, not guessed). */
  failedSamples: number;
  /** Why the logprob signal is missing (for some or all questions); null when every question has it. */
  logprobAbsent: string | null;
}

const STOPS = ['auth', 'quota', 'bad-request', 'not-found', 'hub-unreachable', 'aborted'];

function info(e: unknown): ProviderErrorInfo | null {
  return typeof e === 'object' && e !== null && 'kind' in e && 'message' in e ? (e as ProviderErrorInfo) : null;
}

export async function runMcSemEce(provider: ChatProvider & { notes?: () => string[] }, questions: readonly McQuestion[], opts: McSemOptions): Promise<Result<McSemResult>> {
  let fatal: StageError | null = null;
  let failedSamples = 0;
  const greedy: { logprobs?: TokenLogprob[] }[] = [];
  const fail = (e: unknown, q: McQuestion, what: string) => {
    const i = info(e);
    if (i && STOPS.includes(i.kind) && !fatal) fatal = { kind: i.kind, message: i.message, where: `question ${JSON.stringify(q.id)}, ${what}` };
  };
  const sampleIndices = Array.from({ length: opts.samples }, (_, i) => i);
  const one = async (q: McQuestion): Promise<McSemQuestion> => {
    const sampled = await askReplies(provider, opts.cache, { question: q, purpose: 'sem-ece-sample', indices: sampleIndices, settings: { temperature: opts.temperature, maxTokens: opts.maxTokens }, signal: opts.signal });
    if (sampled.error !== undefined) fail(sampled.error, q, 'samples');
    const replies: (string | null)[] = sampled.replies.map((r) => r.text);
    failedSamples += opts.samples - replies.length;
    let greedyLogprobs: TokenLogprob[] | undefined;
    if (opts.logprobs && !fatal) {
      const g = await askReplies(provider, opts.cache, { question: q, purpose: 'greedy', indices: [0], settings: { temperature: 0, maxTokens: opts.maxTokens, logprobs: true, topLogprobs: 20 }, signal: opts.signal });
      if (g.error !== undefined) fail(g.error, q, 'greedy reply');
      else {
        greedyLogprobs = g.replies[0]?.logprobs;
        greedy.push({ logprobs: greedyLogprobs });
      }
    }
    return mcSemEceQuestion({ question: q, replies, greedyLogprobs }, opts.model);
  };
  const rows = await Promise.all(questions.map(one));
  if (fatal) return { ok: false, error: fatal };
  // A question whose every sample failed has no classes: not scored, counted.
  const scored = rows.filter((r) => r.estimates.n > 0);
  const y = scored.map((r) => r.graded.Y as number);
  return {
    ok: true,
    value: {
      questions: rows,
      accuracy: pairwiseMean(y),
      noOption: rows.reduce((t, r) => t + r.noOption, 0),
      failedSamples,
      logprobAbsent: !opts.logprobs
        ? 'Log-probabilities were not asked for.'
        : scored.every((r) => r.signals.logprob !== undefined)
          ? null
          : (logprobAbsence(provider.config, greedy, provider.notes?.() ?? []) ?? 'Some greedy replies had no usable logprobs at the answer letter.'),
    },
  };
}
