/**
 * Repeated ConfidenceBench-style runs over multiple-choice questions: one request per question per
 * run, each reply read into an outcome (failures become the uniform guess), scored per run and
 * summarised across runs. Run r uses run seed `seed + r` for its fallback letters.
 *
 * When log-probabilities are asked for, each reply also gets the logprob signal (softmax over the
 * option letters at the answer token, logprob-confidence.ts), scored with the same Brier rule against the
 * same correctness; when they do not come back the summary says why (logprob-absence.ts).
 * With a cache, run r's reply to a question is stored under index r (reply-cache.ts).
 */
import type { Result, StageError } from '../model/rows';
import type { ChatProvider, GenerationSettings, ProviderErrorInfo, Reply } from '../model/provider';
import type { McQuestion } from './prompt';
import { askReplies, type ReplyCache } from './reply-cache';
import { mcOutcome, type McOutcome } from './outcome';
import { mcRunScores, type McRunScores } from './brier-scoring';
import { spread, summarizeMcRuns, type Spread, type McSummary } from './runs-summary';
import { mcLogprobConfidence } from './logprob-confidence';
import { logprobAbsence } from './logprob-absence';
import { brierScore } from '../core/brier';

export interface McRunOptions {
  runs: number;
  /** Run r uses seed + r. */
  seed: number;
  temperature: number;
  maxTokens: number;
  /** Ask for token log-probabilities (top 20 alternatives) where the provider has them. */
  logprobs: boolean;
  signal?: AbortSignal;
  /** Where replies are kept between runs: a stored reply is read back instead of requested. */
  cache?: ReplyCache;
  /** Called after each reply is read (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Called once a whole run has completed (runs completed so far); a run a fatal error stops does not count. */
  onRunDone?: (runsDone: number) => void;
}

export const MC_DEFAULTS: Omit<McRunOptions, 'signal' | 'cache' | 'onProgress' | 'onRunDone'> = { runs: 3, seed: 0, temperature: 1, maxTokens: 400, logprobs: true };

/** One row per question per run: what was sent back, what was read, and the logprob signal. */
export interface McRow extends McOutcome {
  run: number;
  seed: number;
  /** Raw reply text; null when the request failed. */
  raw: string | null;
  /** The request's failure, when it failed (never contains the key: provider errors are scrubbed). */
  error?: string;
  /** Softmax probability of the chosen letter from token logprobs; null when unavailable. */
  logprob: number | null;
  logprobNote?: string;
}

export interface McLogprobSummary {
  /** Rows that had the logprob signal. */
  rows: number;
  /** Brier of the logprob confidence per run (over rows that have it) across runs. */
  brier: Spread | null;
  /** Why the signal is missing (for all or some rows); null when every row has it. */
  absence: string | null;
}

export interface McRunResult {
  rows: McRow[];
  perRun: McRunScores[];
  summary: McSummary;
  logprob: McLogprobSummary;
  /** Settings actually sent, and the provider's run-time findings. */
  effective: Partial<GenerationSettings>;
  notes: string[];
}

type ProviderLike = ChatProvider & { notes?: () => string[] };

function errorInfo(e: unknown): ProviderErrorInfo | null {
  if (typeof e === 'object' && e !== null && 'kind' in e && 'message' in e) return e as ProviderErrorInfo;
  return null;
}

/** Failures no retry or fallback can fix: the whole run stops and says why. */
function stops(info: ProviderErrorInfo | null): boolean {
  return info !== null && ['auth', 'quota', 'bad-request', 'not-found', 'hub-unreachable', 'aborted'].includes(info.kind);
}

export async function runMcBaseline(provider: ProviderLike, questions: readonly McQuestion[], opts: McRunOptions): Promise<Result<McRunResult>> {
  const settings: GenerationSettings = {
    temperature: opts.temperature,
    maxTokens: opts.maxTokens,
    ...(opts.logprobs ? { logprobs: true, topLogprobs: 20 } : {}),
  };
  const total = opts.runs * questions.length;
  let done = 0;
  let effective: Partial<GenerationSettings> = {};
  let fatal: StageError | null = null;
  const replies: Pick<Reply, 'logprobs'>[] = [];

  const ask = async (q: McQuestion, run: number): Promise<McRow> => {
    const seed = opts.seed + run;
    let reply: Reply | null = null;
    let error: string | undefined;
    if (!fatal) {
      const asked = await askReplies(provider, opts.cache, { question: q, purpose: 'stated-probability', indices: [run], settings, signal: opts.signal });
      if (asked.completion) effective = asked.completion.effective;
      reply = asked.replies[0] ?? null;
      if (asked.error !== undefined) {
        const info = errorInfo(asked.error);
        error = info ? info.message : String(asked.error);
        if (stops(info) && !fatal) fatal = { kind: info!.kind, message: info!.message, where: `question ${JSON.stringify(q.id)}, run ${run + 1}`, status: info!.status ?? undefined };
      } else if (!reply) error = 'the provider returned no reply';
    }
    if (reply) replies.push(reply);
    const outcome = mcOutcome(q, reply ? reply.text : null, seed);
    let logprob: number | null = null;
    let logprobNote: string | undefined;
    if (reply && opts.logprobs && outcome.fallback === null) {
      const lp = mcLogprobConfidence(reply.logprobs, q.letters);
      if (lp.ok && lp.chosen === outcome.choice) logprob = lp.confidence;
      else logprobNote = lp.ok ? 'the answer token disagrees with the parsed answer' : lp.detail;
    }
    opts.onProgress?.(++done, total);
    return { ...outcome, run, seed, raw: reply ? reply.text : null, ...(error ? { error } : {}), logprob, ...(logprobNote ? { logprobNote } : {}) };
  };

  const rows: McRow[] = [];
  for (let run = 0; run < opts.runs; run++) {
    rows.push(...(await Promise.all(questions.map((q) => ask(q, run)))));
    if (fatal) return { ok: false, error: fatal };
    opts.onRunDone?.(run + 1);
  }
  const perRun = Array.from({ length: opts.runs }, (_, r) => mcRunScores(rows.filter((row) => row.run === r)));
  const withLogprob = rows.filter((r) => r.logprob !== null);
  const logprobBrier = Array.from({ length: opts.runs }, (_, r) => {
    const rs = withLogprob.filter((row) => row.run === r);
    return brierScore(rs.map((row) => row.logprob as number), rs.map((row) => row.correct));
  });
  const notes = provider.notes?.() ?? [];
  const absence = !opts.logprobs
    ? 'Log-probabilities were not asked for.'
    : withLogprob.length === rows.length
      ? null
      : (logprobAbsence(provider.config, replies, notes) ?? `${rows.length - withLogprob.length} of ${rows.length} replies had no usable logprob at the answer letter (unreadable replies or no alternatives listed).`);
  return {
    ok: true,
    value: {
      rows,
      perRun,
      summary: summarizeMcRuns(perRun),
      logprob: { rows: withLogprob.length, brier: withLogprob.length ? spread(logprobBrier) : null, absence },
      effective,
      notes,
    },
  };
}
