/**
 * A dataset's questions as multiple-choice questions, each checked once (toMcQuestion); the ones
 * that do not qualify are listed with why, never dropped silently. Shared by `semece mc` and the
 * app's multiple-choice run.
 */
import type { Question } from '../model/rows';
import { toMcQuestion, type McQuestion } from './prompt';

export interface McQuestionSet {
  questions: McQuestion[];
  skipped: { where: string; reason: string }[];
}

export function toMcQuestions(questions: readonly Question[]): McQuestionSet {
  const out: McQuestionSet = { questions: [], skipped: [] };
  for (const q of questions) {
    const m = toMcQuestion(q);
    if (m.ok) out.questions.push(m.value);
    else out.skipped.push({ where: m.error.where ?? q.id, reason: m.error.message });
  }
  return out;
}
