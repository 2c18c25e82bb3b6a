/**
 * The LLM judge's prompt for semantic clustering (contract in SEMECE.md). Worded here, editable
 * by the user: `JudgePrompt` is plain data, and `{question}`, `{answers}`, `{n}`, `{last}` are
 * filled in by `buildJudgeMessages`.
 */
import type { ChatMessage } from '../model/provider';

export interface JudgePrompt {
  system: string;
  user: string;
}

export const DEFAULT_JUDGE_PROMPT: JudgePrompt = {
  system: [
    'You sort short answers to one question into groups that mean the same thing.',
    'Two answers belong together exactly when they give the same underlying answer.',
    'Ignore how an answer is written: letter case, articles, spelling variants, full or short forms of a name, units written differently, and hedges or extra qualifiers ("probably", "I think", "in 1990s Europe") do not make a different answer.',
    'Answers that name different specific things (different people, places, numbers, dates) stay in separate groups, even if they are related.',
    'Do not split one answer into several groups without a reason.',
    'Reply with JSON only, in this form: {"clusters":[{"label":"short canonical answer","members":[0,3]}]}.',
    'Every answer index must appear in exactly one group. The label is a short, clear wording of the group\'s answer.',
  ].join('\n'),
  user: [
    'Question: {question}',
    '',
    'Answers ({n} of them, numbered 0 to {last}):',
    '{answers}',
    '',
    'Group these answers. Return only the JSON object.',
  ].join('\n'),
};

const EMPTY_ANSWER = '(no answer)';

/** `[i] text` lines; line breaks inside an answer are flattened so each answer is one line. */
export function formatAnswerList(answers: string[]): string {
  return answers.map((a, i) => `[${i}] ${a.replace(/\s+/g, ' ').trim() || EMPTY_ANSWER}`).join('\n');
}

export function buildJudgeMessages(question: string, answers: string[], prompt: JudgePrompt = DEFAULT_JUDGE_PROMPT): ChatMessage[] {
  const fill = (template: string) =>
    template.replace(/\{(question|answers|n|last)\}/g, (_, name: string) => {
      if (name === 'question') return question.trim();
      if (name === 'answers') return formatAnswerList(answers);
      if (name === 'n') return String(answers.length);
      return String(answers.length - 1);
    });
  return [
    { role: 'system', content: fill(prompt.system) },
    { role: 'user', content: fill(prompt.user) },
  ];
}

/**
 * The varied request of a retry: the judge's own faulty reply, then what was wrong with it and
 * the rule again. A provider error (no reply) is retried with the original request unchanged.
 */
export function buildRetryMessages(base: ChatMessage[], previousReply: string | null, problem: string, n: number): ChatMessage[] {
  if (previousReply === null) return base;
  return [
    ...base,
    { role: 'assistant', content: previousReply },
    {
      role: 'user',
      content: `That reply could not be used: ${problem}. Answer again with only the JSON object {"clusters":[{"label":"…","members":[…]}]}, listing every index from 0 to ${n - 1} exactly once.`,
    },
  ];
}
