/**
 * The LLM-judge grader: one call per question comparing the modal class's label with the gold
 * answer, temperature 0. The verdict is read strictly: after removing decoration (white space,
 * quotes, markdown emphasis, a final period) the reply must be exactly one of the three words
 * (any case; "NOT ATTEMPTED" with a space is the same word). Anything else is retried once with a
 * reminder, then the grade is null (Y null: excluded from scores and counted).
 */
import type { Grade, StageError } from '../model/rows';
import type { ChatProvider, Usage } from '../model/provider';
import { buildGraderMessages, DEFAULT_GRADER_PROMPT, type GraderPrompt } from './grade-judge-prompt';
import type { GradeItem, GradeOutcome, Grader } from './grader';
import { errorMessage } from '../model/app-error';

export interface JudgeGraderOptions {
  provider: ChatProvider;
  prompt?: GraderPrompt;
  retries?: number;
  maxTokens?: number;
}

export function parseVerdict(reply: string): Grade | null {
  const word = reply
    .trim()
    .replace(/^[\s"'`*_]+|[\s"'`*_.!]+$/g, '')
    .replace(/^(verdict|grade)\s*:\s*/i, '')
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  return word === 'CORRECT' || word === 'INCORRECT' || word === 'NOT_ATTEMPTED' ? word : null;
}

export function createJudgeGrader(options: JudgeGraderOptions): Grader {
  const retries = options.retries ?? 1;
  return {
    method: 'judge',
    async grade(item: GradeItem, signal?: AbortSignal): Promise<GradeOutcome> {
      const where = `judge grader${item.id ? ` (question ${item.id})` : ''}`;
      const usage: Usage = { inputTokens: 0, outputTokens: 0 };
      const base = buildGraderMessages(item, options.prompt ?? DEFAULT_GRADER_PROMPT);
      let messages = base;
      let calls = 0;
      let lastError: StageError = { kind: 'grader', message: 'no attempt made', where };
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (signal?.aborted) return { ok: false, error: { kind: 'aborted', message: 'grading was cancelled', where }, usage, calls };
        try {
          calls++;
          const completion = await options.provider.complete({ messages, settings: { temperature: 0, maxTokens: options.maxTokens ?? 16 }, n: 1, signal });
          usage.inputTokens += completion.usage.inputTokens;
          usage.outputTokens += completion.usage.outputTokens;
          const text = completion.replies[0]?.text ?? '';
          const verdict = parseVerdict(text);
          if (verdict) return { ok: true, value: verdict, usage, calls };
          const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
          lastError = { kind: 'grader-verdict', message: `the verdict is not one of CORRECT, INCORRECT, NOT_ATTEMPTED: ${JSON.stringify(shown)}`, where };
          messages = [...base, { role: 'assistant', content: text }, { role: 'user', content: 'Reply with exactly one word: CORRECT, INCORRECT or NOT_ATTEMPTED.' }];
        } catch (err) {
          const e = err as { name?: string; kind?: string; message?: string; status?: number | null; retryable?: boolean };
          if (e?.name === 'AbortError' || e?.kind === 'aborted') return { ok: false, error: { kind: 'aborted', message: 'grading was cancelled', where }, usage, calls };
          lastError = { kind: e?.kind ?? 'provider', message: `the grading request failed: ${errorMessage(err)}`, where, ...(typeof e?.status === 'number' ? { status: e.status } : {}), ...(typeof e?.retryable === 'boolean' ? { retryable: e.retryable } : {}) };
          if (e?.retryable === false) break;
          messages = base;
        }
      }
      return { ok: false, error: { ...lastError, message: `${lastError.message} (after ${calls} attempt${calls === 1 ? '' : 's'})` }, usage, calls };
    },
  };
}
