/**
 * The generation prompt: asks for a short final answer and a stated confidence on the last two
 * lines, the contract extract.ts reads. The user may edit it; it must keep the {question} slot.
 */
import type { ChatMessage } from '../model/provider.ts';
import type { Question, Result } from '../model/rows.ts';

export const QUESTION_SLOT = '{question}';

export const DEFAULT_GENERATION_PROMPT = `Answer the question below. You may reason briefly first, but your final answer must be short: a name, a number, a date or a short phrase, not a sentence.

Question: {question}

Finish your reply with exactly these two lines and nothing after them:
Answer: <your short final answer>
Confidence: <0-100>%

Confidence is how likely you think it is, from 0 to 100, that your answer is correct.`;

/** A template is usable when it has the {question} slot; anything else about its wording is the user's choice. */
export function validatePromptTemplate(template: string): Result<string> {
  if (typeof template !== 'string' || template.trim() === '') {
    return { ok: false, error: { kind: 'prompt', message: 'The prompt template is empty.', where: 'prompt template' } };
  }
  if (!template.includes(QUESTION_SLOT)) {
    return {
      ok: false,
      error: { kind: 'prompt', message: `The prompt template must contain ${QUESTION_SLOT} where the question goes.`, where: 'prompt template' },
    };
  }
  return { ok: true, value: template };
}

/** The question as the model sees it: lettered options follow the text for multiple-choice items. */
export function questionText(q: Pick<Question, 'question' | 'options'>): string {
  if (!q.options || q.options.length === 0) return q.question;
  const letters = q.options.map((o, i) => `${String.fromCharCode(65 + i)}. ${o}`);
  return `${q.question}\n${letters.join('\n')}`;
}

/** Fills every {question} slot; a function replacer so `$&`-like text in the question stays literal. */
export function fillPrompt(template: string, q: Pick<Question, 'question' | 'options'>): string {
  const text = questionText(q);
  return template.split(QUESTION_SLOT).join(text);
}

export function generationMessages(prompt: string): ChatMessage[] {
  return [{ role: 'user', content: prompt }];
}
