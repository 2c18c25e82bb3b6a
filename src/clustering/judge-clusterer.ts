/**
 * The LLM-judge clusterer: one call per question (plus retries), temperature 0, JSON mode where
 * the provider has one. Identical answers (after trimming) are listed once and expanded back
 * afterwards — with 50 samples of a short-answer question usually a handful of distinct texts,
 * this cuts the prompt and the reply to a fraction and cannot change the partition (the judge
 * could only have put identical texts together anyway, or split them, which the rules forbid).
 */
import type { SemanticClass, StageError } from '../model/rows';
import type { ChatProvider, Usage } from '../model/provider';
import { readJudgeReply } from './judge-parse';
import { buildJudgeMessages, buildRetryMessages, DEFAULT_JUDGE_PROMPT, type JudgePrompt } from './cluster-judge-prompt';
import type { ClusterOutcome, Clusterer } from './clusterer';
import { errorMessage } from '../model/app-error';

export interface JudgeClustererOptions {
  provider: ChatProvider;
  prompt?: JudgePrompt;
  /** Further attempts after a reply that is not a valid partition (default 2). */
  retries?: number;
  /** Reply budget; by default grows with the number of distinct answers. */
  maxTokens?: number;
  /** Ask for JSON mode (default true). */
  json?: boolean;
}

/** Distinct trimmed texts in order of first appearance and, per sample, its distinct index. */
export function dedupeAnswers(answers: string[]): { unique: string[]; indexOf: number[] } {
  const seen = new Map<string, number>();
  const unique: string[] = [];
  const indexOf = answers.map((a) => {
    const t = a.trim();
    let u = seen.get(t);
    if (u === undefined) {
      u = unique.length;
      seen.set(t, u);
      unique.push(t);
    }
    return u;
  });
  return { unique, indexOf };
}

/** Classes over distinct texts → classes over samples, same listed order. */
export function expandClasses(classes: SemanticClass[], indexOf: number[]): SemanticClass[] {
  const byUnique: number[][] = [];
  indexOf.forEach((u, i) => (byUnique[u] ??= []).push(i));
  return classes.map((c) => ({ label: c.label, members: c.members.flatMap((u) => byUnique[u] ?? []).sort((a, b) => a - b) }));
}

function describeThrown(err: unknown): StageError {
  const e = err as Partial<StageError> & { name?: string; message?: string };
  if (e?.name === 'AbortError' || e?.kind === 'aborted') return { kind: 'aborted', message: 'clustering was cancelled', where: 'judge clusterer' };
  return {
    kind: typeof e?.kind === 'string' ? e.kind : 'provider',
    message: `the judge request failed: ${errorMessage(err)}`,
    where: 'judge clusterer',
    status: typeof e?.status === 'number' ? e.status : undefined,
    retryable: typeof e?.retryable === 'boolean' ? e.retryable : undefined,
  };
}

export function createJudgeClusterer(options: JudgeClustererOptions): Clusterer {
  const retries = options.retries ?? 2;
  return {
    method: 'judge',
    async cluster(question, answers, signal): Promise<ClusterOutcome> {
      const usage: Usage = { inputTokens: 0, outputTokens: 0 };
      if (answers.length === 0) return { ok: true, value: [], usage, calls: 0 };
      const { unique, indexOf } = dedupeAnswers(answers);
      // One distinct answer needs no judge: the partition is forced.
      if (unique.length === 1) return { ok: true, value: [{ label: unique[0] || '(no answer)', members: answers.map((_, i) => i) }], usage, calls: 0 };
      const base = buildJudgeMessages(question, unique, options.prompt ?? DEFAULT_JUDGE_PROMPT);
      const maxTokens = options.maxTokens ?? 512 + 48 * unique.length;
      let messages = base;
      let lastError: StageError = { kind: 'judge', message: 'no attempt made', where: 'judge clusterer' };
      let calls = 0;
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (signal?.aborted) return { ok: false, error: { kind: 'aborted', message: 'clustering was cancelled', where: 'judge clusterer' }, usage, calls };
        let replyText: string | null = null;
        try {
          calls++;
          const completion = await options.provider.complete({
            messages,
            settings: { temperature: 0, maxTokens, json: options.json ?? true },
            n: 1,
            signal,
          });
          usage.inputTokens += completion.usage.inputTokens;
          usage.outputTokens += completion.usage.outputTokens;
          replyText = completion.replies[0]?.text ?? '';
          const read = readJudgeReply(replyText, unique.length);
          if (read.ok) return { ok: true, value: expandClasses(read.value, indexOf), usage, calls };
          lastError = read.error;
        } catch (err) {
          lastError = describeThrown(err);
          if (lastError.kind === 'aborted') return { ok: false, error: lastError, usage, calls };
          // The provider layer has already retried what can be retried (rate limits, 5xx);
          // asking again cannot fix a bad key or an exhausted quota.
          if (lastError.retryable === false) break;
        }
        messages = buildRetryMessages(base, replyText, lastError.message, unique.length);
      }
      return {
        ok: false,
        error: { ...lastError, message: `${lastError.message} (after ${calls} attempt${calls === 1 ? '' : 's'})` },
        usage,
        calls,
      };
    },
  };
}
