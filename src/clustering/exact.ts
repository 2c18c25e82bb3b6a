/**
 * The exact / normalized-match clusterer: no model, the cheapest option. Answers equal after
 * `normalizeAnswer` share a class. For multiple-choice questions the chosen option is the
 * class: a reply naming a letter ("B", "(B)", "B) Paris", "Option B", "Answer: b.") or stating an
 * option's text exactly (after normalization) belongs to that option's class, labelled by the
 * letter. Replies that name no option fall back to their normalized text.
 * Classes are listed in order of first appearance; the label is the first member's text.
 */
import type { SemanticClass } from '../model/rows';
import { normalizeAnswer } from './normalize';
import type { ClusterContext, ClusterOutcome, Clusterer } from './clusterer';

export const OPTION_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The option a reply chooses, as an index into `options`, or -1. A bare letter must be the
 * whole reply or lead it followed by a separator, so "A city in France" does not pick A.
 */
export function chosenOption(answer: string, options: string[]): number {
  const text = answer.trim();
  const match = BARE_LETTER.exec(text) ?? LEADING_LETTER.exec(text) ?? NAMED_LETTER.exec(text);
  if (match) {
    const k = OPTION_LETTERS.indexOf(match[1].toUpperCase());
    if (k >= 0 && k < options.length) return k;
  }
  const norm = normalizeAnswer(text);
  if (norm === '') return -1;
  return options.findIndex((o) => normalizeAnswer(o) === norm);
}

/** "B", "(B)", "B)", "b." */
const BARE_LETTER = /^[([]?([A-Za-z])[)\].:]?$/;
/** "(B) Paris", "B) Paris", "B. Paris", "B: Paris" — a closing mark is required. */
const LEADING_LETTER = /^[([]?([A-Za-z])[)\].:]\s/;
/** "Option B", "Answer: (b)", "The answer is B.", "Choice C, because …" */
const NAMED_LETTER = /^(?:the\s+)?(?:answer|option|choice)(?:\s+is)?\s*:?\s*[([]?([A-Za-z])[)\].:]?(?=$|[\s,;])/i;

/** The classing key and label of one answer. */
function classKey(answer: string, options: string[] | undefined): { key: string; label: string } {
  if (options && options.length > 0) {
    const k = chosenOption(answer, options);
    if (k >= 0) return { key: `option:${k}`, label: OPTION_LETTERS[k] };
  }
  return { key: `text:${normalizeAnswer(answer)}`, label: answer.trim() };
}

/** Pure and synchronous: used by the exact clusterer and by the benchmark. */
export function clusterExact(answers: string[], options?: string[]): SemanticClass[] {
  const byKey = new Map<string, SemanticClass>();
  const classes: SemanticClass[] = [];
  answers.forEach((answer, i) => {
    const { key, label } = classKey(answer, options);
    let cls = byKey.get(key);
    if (!cls) {
      cls = { label, members: [] };
      byKey.set(key, cls);
      classes.push(cls);
    }
    cls.members.push(i);
  });
  return classes;
}

export function createExactClusterer(): Clusterer {
  return {
    method: 'exact',
    async cluster(_question: string, answers: string[], signal?: AbortSignal, context?: ClusterContext): Promise<ClusterOutcome> {
      if (signal?.aborted) return { ok: false, error: { kind: 'aborted', message: 'clustering was cancelled', where: 'exact clusterer' } };
      return { ok: true, value: clusterExact(answers, context?.options) };
    },
  };
}
