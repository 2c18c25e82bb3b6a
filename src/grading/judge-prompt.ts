/**
 * The grading judge's prompt, worded here and editable (plain data). Placeholders: {question},
 * {gold}, {aliases}, {predicted}.
 */
import type { ChatMessage } from '../model/provider';
import type { GradeItem } from './types';

export interface GraderPrompt {
  system: string;
  user: string;
}

export const DEFAULT_GRADER_PROMPT: GraderPrompt = {
  system: [
    'You check whether an answer to a question matches the reference answer.',
    'CORRECT: the answer states the same thing as the reference or one of the accepted alternatives; wording, spelling, name forms, units and extra detail that does not contradict the reference do not matter.',
    'INCORRECT: the answer states something else, contradicts the reference, or hedges between several candidates.',
    'NOT_ATTEMPTED: the answer declines, says it does not know, or gives no answer.',
    'Reply with exactly one word: CORRECT, INCORRECT or NOT_ATTEMPTED.',
  ].join('\n'),
  user: ['Question: {question}', 'Reference answer: {gold}', 'Also accepted: {aliases}', 'Answer to check: {predicted}', '', 'Your verdict (one word):'].join('\n'),
};

export function buildGraderMessages(item: GradeItem, prompt: GraderPrompt = DEFAULT_GRADER_PROMPT): ChatMessage[] {
  const aliases = (item.aliases ?? []).filter((a) => a.trim() !== '' && a.trim() !== item.gold.trim());
  const values: Record<string, string> = {
    question: item.question.trim(),
    gold: item.gold.trim(),
    aliases: aliases.length > 0 ? aliases.map((a) => a.trim()).join('; ') : '(none)',
    predicted: item.predicted.replace(/\s+/g, ' ').trim() || '(no answer)',
  };
  const fill = (t: string) => t.replace(/\{(question|gold|aliases|predicted)\}/g, (_, k: string) => values[k]);
  return [
    { role: 'system', content: fill(prompt.system) },
    { role: 'user', content: fill(prompt.user) },
  ];
}
