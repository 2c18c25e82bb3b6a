/**
 * p(True) (Kadavath et al. 2022, "Language Models (Mostly) Know What They Know"): the model is
 * shown the question and a proposed answer and asked whether the answer is true; the probability
 * it gives "True" is a confidence that the answer is correct. This module is the prompt, the
 * proposed answer and the two ways of reading the verdict; p-true.ts sends and caches the requests.
 *
 * The prompt is LM-Polygraph's (stat_calculators/prompt.py: PromptCalculator for p_true,
 * SamplingPromptCalculator for p_true_sampling, whose "brainstormed ideas" are the other sampled
 * answers, as in Kadavath et al. §4.2), with one line added because a chat API returns a reply,
 * not the next token: "Answer True or False." LM-Polygraph reads log P("True") of the next token;
 * an API gives at most the top few tokens of each position, so here:
 * - logprobs, where the provider returns them: at the first token of the reply that reads as a
 *   verdict (True/Yes/A or False/No/B, case, spaces and brackets ignored), the probability of the
 *   "true" tokens among that position's top alternatives over that of the "true" and "false" ones:
 *   P(true) / (P(true) + P(false)). Normalised over the two verdicts because the list is cut to the
 *   top k and the rest of the mass (other wordings, "The") is not a verdict either way.
 * - otherwise, sampled verdicts: the share of "true" among the replies that read as a verdict.
 */
import type { ChatMessage, Reply, TokenLogprob } from '../model/provider';

/** Part of every p(True) key: a change of the prompt's wording is a change of this. */
export const P_TRUE_PROMPT_VERSION = 'p-true-v1';

export type { PTrueMethod } from '../model/rows';

/** Case, spaces, brackets and punctuation folded: how answers are counted and verdicts read. */
export function foldAnswer(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The proposed answer: the most frequent non-empty extracted answer (case and whitespace folded;
 * the first seen wins a tie), in the words it was first given. Kadavath et al. and LM-Polygraph
 * propose the greedy answer; a sampling run has no greedy reply, and the modal answer is the one
 * Sem1 scores. Chosen from the samples alone (not the clustering), so p(True) is asked once
 * whatever clustering is run afterwards. '' when every answer is empty.
 */
export function proposedAnswer(answers: readonly (string | null)[]): string {
  const counts = new Map<string, { count: number; first: string }>();
  for (const a of answers) {
    if (a === null || a.trim() === '') continue;
    const key = foldAnswer(a);
    let c = counts.get(key);
    if (!c) counts.set(key, (c = { count: 0, first: a.trim() }));
    c.count += 1;
  }
  // The map keeps first-seen order, so the first of the largest wins.
  let best: { count: number; first: string } | undefined;
  for (const c of counts.values()) if (!best || c.count > best.count) best = c;
  return best?.first ?? '';
}

/** The distinct answers other than the proposed one, first seen first: the "brainstormed ideas". */
export function brainstormedAnswers(answers: readonly (string | null)[], proposed: string): string[] {
  const seen = new Set([foldAnswer(proposed)]);
  const out: string[] = [];
  for (const a of answers) {
    if (a === null || a.trim() === '') continue;
    const key = foldAnswer(a);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a.trim());
  }
  return out;
}

/** The p(True) request: LM-Polygraph's prompt (with the brainstormed answers when given), one user message. */
export function pTrueMessages(question: string, proposed: string, brainstormed?: readonly string[]): ChatMessage[] {
  const ideas = brainstormed && brainstormed.length > 0 ? `Here are some ideas that were brainstormed: ${brainstormed.join(', ')}\n` : '';
  const content =
    `Question: ${question}\n${ideas}Possible answer: ${proposed}\n` +
    'Is the possible answer:\n (A) True\n (B) False\nAnswer True or False.\nThe possible answer is:';
  return [{ role: 'user', content }];
}

/** A token or a reply's first word as a verdict: true, false, or neither. */
export function verdictOfToken(token: string): boolean | undefined {
  const t = token.toLowerCase().replace(/[^a-z]/g, '');
  if (t === 'true' || t === 'yes' || t === 'a') return true;
  if (t === 'false' || t === 'no' || t === 'b') return false;
  return undefined;
}

/** A reply's verdict: its first word that reads as one ("(A) True", "**True**", "False."); undefined: none. */
export function verdictOfText(text: string): boolean | undefined {
  for (const word of text.split(/[\s()[\]*_:.,!"'`]+/)) {
    if (word === '') continue;
    const v = verdictOfToken(word);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * P(true) / (P(true) + P(false)) at the first token of the reply that reads as a verdict, over
 * that position's top alternatives (and the token itself); undefined when no position has one or
 * its verdict tokens carry no probability.
 */
export function pTrueFromLogprobs(tokens: readonly TokenLogprob[] | undefined): number | undefined {
  if (!tokens) return undefined;
  for (const t of tokens) {
    if (verdictOfToken(t.token) === undefined) continue;
    // Each distinct token once (the chosen one is usually also the first of the top list).
    const seen = new Map<string, number>([[t.token, t.logprob]]);
    for (const alt of t.top ?? []) if (!seen.has(alt.token)) seen.set(alt.token, alt.logprob);
    let yes = 0;
    let no = 0;
    for (const [token, logprob] of seen) {
      if (!Number.isFinite(logprob)) continue;
      const v = verdictOfToken(token);
      if (v === true) yes += Math.exp(logprob);
      else if (v === false) no += Math.exp(logprob);
    }
    return yes + no > 0 ? yes / (yes + no) : undefined;
  }
  return undefined;
}

/** The share of "true" among the replies that read as a verdict; undefined when none does. */
export function pTrueFromVerdicts(replies: readonly Pick<Reply, 'text'>[]): { value: number; verdicts: number } | undefined {
  let yes = 0;
  let verdicts = 0;
  for (const r of replies) {
    const v = verdictOfText(r.text);
    if (v === undefined) continue;
    verdicts += 1;
    if (v) yes += 1;
  }
  return verdicts > 0 ? { value: yes / verdicts, verdicts } : undefined;
}
