/**
 * The entailment clusterer, the semantic-uncertainty method (Kuhn et al. 2023; Farquhar et al.
 * 2024), independent of where the decisions come from (the NLI worker in the browser,
 * onnxruntime-node in the CLI, a fake in tests).
 *
 * Two answers are equivalent when a natural-language-inference model says each entails the
 * other ("strict" bidirectional entailment, the reference implementation's default), with the
 * question as context: premise = question + " " + answer A, hypothesis = question + " " + answer B,
 * as jlko/semantic_uncertainty does with --condition_on_question (its default).
 *
 * NLI decisions need not be transitive (A ⇔ B and B ⇔ C while A and C are apart), so the rule for
 * building classes is fixed here: answers are taken in sampling order; each is compared with the
 * FIRST MEMBER of every class made so far, in the order the classes were made, and joins the first
 * class whose first member it mutually entails; if none, it starts a new class. Classes are
 * therefore listed by first appearance and every class's first member is its earliest sample. The
 * reference implementation of Farquhar et al. (jlko's get_semantic_ids) compares with a class's
 * first member too; where an answer mutually entails the first members of two classes, its loop
 * lets the later class take it (it overwrites), this one keeps it in the earlier class — the same
 * classes whenever the decisions are transitive. (Kuhn et al.'s first code, lorenzkuhn's
 * get_semantic_similarities, compared every pair of distinct answers instead, answer j taking
 * answer i's class whenever neither direction was a contradiction: a looser, order-dependent rule
 * this clusterer does not follow.)
 *
 * Answers identical after `normalizeAnswer` merge first without asking the model (as the
 * embedding clusterer does, and as Kuhn et al. compare only unique answers); the first raw text of
 * each merged group is what the model reads. Pair decisions are cached by (model and its
 * identity, premise, hypothesis), so repeating a clustering asks the model nothing. The result is deterministic for a
 * deterministic model: the pairs asked and their order depend only on the answers.
 *
 * A multiple-choice question's answers that choose an option ("B", "(B) Lyon", "Lyon") are read
 * as that option's text, so they merge as they do under exact match; the class label stays the
 * most frequent raw answer, which the alias grader maps back to its option.
 */
import { ENTAILMENT_LABEL, NLI_FAILED_KIND, type EntailmentCache, type EntailmentKey, type NliLabel } from '../model/entailment-cache';
import { methodWithOwnModel } from '../model/clustering-methods';
import type { SemanticClass } from '../model/rows';
import { classLabel, mergeNormalized } from './embedding';
import { chosenOption } from './exact';
import { HUB_UNREACHABLE } from '../model/model-hub';
import { isHubUnreachable } from '../model/model-load-error';
import type { ClusterOutcome, Clusterer } from './clusterer';
import { allOrderedPairs, entailmentSimilarity } from './entailment-similarity';
import type { AnswerSimilarity } from '../model/rows';
import { errorMessage } from '../model/app-error';

/** Bumped when the rule (context, strictness, comparison order) changes, so stored clusterings are not reused. */
export const ENTAILMENT_RULE_VERSION = 1;

export interface NliPair {
  premise: string;
  hypothesis: string;
}

/** A pair's top label and its probability of entailment, from one pass of the model. */
export interface NliScore {
  label: NliLabel;
  /** The softmax probability of the entailment class. */
  entailment: number;
}

/** Pairs → the model's top label for each, in order. Implemented by the NLI worker client and the Node classifier. */
export interface EntailmentDecider {
  readonly model: string;
  /**
   * Which model this is beyond its id (transformers/model-identity.ts: a hash of its config and
   * weights), known once it is loaded; part of every cached decision's key.
   */
  identity(signal?: AbortSignal): Promise<string>;
  decide(pairs: NliPair[], signal?: AbortSignal): Promise<NliLabel[]>;
  /** Each pair's top label and entailment probability (the clusterer's `similarity` setting needs it). */
  score?(pairs: NliPair[], signal?: AbortSignal): Promise<NliScore[]>;
}

export interface EntailmentClustererOptions {
  decider: EntailmentDecider;
  cache?: EntailmentCache;
  /** Called with how many pairs went to the model (not the cache), for counters and benchmarks. */
  onDecided?(pairs: number): void;
  /**
   * Also measure the answers' similarity for the graph signals (EigV, Deg, Ecc): every ordered pair
   * of distinct answers is scored (entailment-similarity.ts), and the classes are built from the
   * same pass's labels. Costs g(g − 1) pairs for g distinct answers, asked each time (the decision
   * cache holds labels only; the app's stage cache keeps the clustered row, similarity included).
   */
  similarity?: boolean;
}

/** The text the model reads for one answer: the question as context, then the answer. */
export function contextualized(question: string, answer: string): string {
  const q = question.trim();
  const a = answer.trim();
  return q ? `${q} ${a}` : a;
}

/** Labels for `pairs`, from the cache where it has them and from the decider for the rest (one call). */
async function labelsFor(pairs: NliPair[], options: EntailmentClustererOptions, signal?: AbortSignal): Promise<NliLabel[]> {
  if (pairs.length === 0) return [];
  const { decider, cache } = options;
  // Only a cache needs the identity (the model is loaded for it, as it would be to decide).
  const identity = cache ? await decider.identity(signal) : '';
  const keys: EntailmentKey[] = pairs.map((p) => ({ model: decider.model, identity, premise: p.premise, hypothesis: p.hypothesis }));
  const cached = cache ? await cache.get(keys) : pairs.map(() => undefined);
  const missing = pairs.filter((_, i) => cached[i] === undefined);
  const fresh = missing.length > 0 ? await decider.decide(missing, signal) : [];
  if (fresh.length !== missing.length) throw new Error(`the NLI model returned ${fresh.length} decisions for ${missing.length} pairs`);
  if (missing.length > 0) options.onDecided?.(missing.length);
  if (cache && fresh.length > 0) await cache.put(missing.map((p, i) => ({ model: decider.model, identity, premise: p.premise, hypothesis: p.hypothesis, label: fresh[i] })));
  let next = 0;
  return cached.map((l) => l ?? fresh[next++]);
}

/**
 * Pure rule over a decision function: which class each text joins. `texts` are the contextualized
 * texts in order; the answer is, per text, the index of its class (classes numbered by first
 * appearance). Each text asks, in one batch, whether it is entailed by every class's first member
 * (premise = first member, hypothesis = the text); then, in a second batch, the reverse for those
 * classes only; it joins the first class entailed both ways.
 */
export async function assignByEntailment(texts: string[], decide: (pairs: NliPair[]) => Promise<NliLabel[]>): Promise<number[]> {
  const firstMembers: string[] = [];
  const classOf: number[] = [];
  for (const text of texts) {
    let joined = -1;
    if (firstMembers.length > 0) {
      const forward = await decide(firstMembers.map((first) => ({ premise: first, hypothesis: text })));
      const candidates = firstMembers.map((_, c) => c).filter((c) => forward[c] === ENTAILMENT_LABEL);
      if (candidates.length > 0) {
        const backward = await decide(candidates.map((c) => ({ premise: text, hypothesis: firstMembers[c] })));
        const k = backward.findIndex((l) => l === ENTAILMENT_LABEL);
        if (k >= 0) joined = candidates[k];
      }
    }
    if (joined < 0) {
      joined = firstMembers.length;
      firstMembers.push(text);
    }
    classOf.push(joined);
  }
  return classOf;
}

/** Classes of `answers` (sampling order) from each normalized group's class. */
export function classesFromGroupAssignment(answers: string[], groups: { samples: number[] }[], classOfGroup: number[]): SemanticClass[] {
  const members: number[][] = [];
  groups.forEach((g, i) => {
    (members[classOfGroup[i]] ??= []).push(...g.samples);
  });
  return members.map((m) => {
    const sorted = [...m].sort((a, b) => a - b);
    return { label: classLabel(answers, sorted), members: sorted };
  });
}

/** Each answer that chooses one of `choices` as that option's text; the others as they are. */
export function readAsOptions(answers: string[], choices: string[] | undefined): string[] {
  if (!choices || choices.length === 0) return answers;
  return answers.map((a) => {
    const k = chosenOption(a, choices);
    return k >= 0 ? choices[k] : a;
  });
}

/**
 * Every ordered pair of the texts scored in one call, then the classes by the usual rule over those
 * labels, and the similarity from the entailment probabilities. The decision cache is neither read
 * (it holds labels, not probabilities) nor written (g(g − 1) entries a question would swell it; the
 * stage cache keeps the clustered row, similarity included).
 */
async function scoredClasses(texts: string[], n: number, groups: { samples: number[] }[], options: EntailmentClustererOptions, signal?: AbortSignal): Promise<{ classOfGroup: number[]; similarity: AnswerSimilarity }> {
  const { decider } = options;
  if (!decider.score) throw new Error(`the NLI model ${decider.model} gives no entailment probabilities here`);
  const pairs = allOrderedPairs(texts);
  const scores = pairs.length > 0 ? await decider.score(pairs, signal) : [];
  if (scores.length !== pairs.length) throw new Error(`the NLI model returned ${scores.length} scores for ${pairs.length} pairs`);
  if (pairs.length > 0) options.onDecided?.(pairs.length);
  const labelOf = new Map<string, NliLabel>(pairs.map((p, i) => [`${p.premise}\u0000${p.hypothesis}`, scores[i].label]));
  const classOfGroup = await assignByEntailment(texts, async (asked) =>
    asked.map((p) => {
      const label = labelOf.get(`${p.premise}\u0000${p.hypothesis}`);
      if (label === undefined) throw new Error('a pair the rule asks was not scored');
      return label;
    }),
  );
  return { classOfGroup, similarity: entailmentSimilarity(n, groups, scores.map((s) => s.entailment)) };
}

/** This clusterer's method: the one of the methods table that runs an NLI model. */
const METHOD = methodWithOwnModel('nli');

export function createEntailmentClusterer(options: EntailmentClustererOptions): Clusterer {
  return {
    method: METHOD,
    identity: (signal) => options.decider.identity(signal),
    async cluster(question, answers, signal, context): Promise<ClusterOutcome> {
      const where = `entailment clusterer (${options.decider.model})`;
      const aborted = (): ClusterOutcome => ({ ok: false, error: { kind: 'aborted', message: 'clustering was cancelled', where } });
      if (signal?.aborted) return aborted();
      const groups = mergeNormalized(readAsOptions(answers, context?.options));
      try {
        const texts = groups.map((g) => contextualized(question, g.text));
        if (options.similarity) {
          if (signal?.aborted) return aborted();
          const scored = await scoredClasses(texts, answers.length, groups, options, signal);
          return { ok: true, value: classesFromGroupAssignment(answers, groups, scored.classOfGroup), similarity: scored.similarity };
        }
        const classOfGroup = await assignByEntailment(texts, (pairs) => {
          if (signal?.aborted) throw new DOMException('clustering was cancelled', 'AbortError');
          return labelsFor(pairs, options, signal);
        });
        return { ok: true, value: classesFromGroupAssignment(answers, groups, classOfGroup) };
      } catch (err) {
        if (signal?.aborted) return aborted();
        // Said as it is: the stage stops on it rather than failing every question alike.
        if (isHubUnreachable(err)) return { ok: false, error: { kind: HUB_UNREACHABLE, message: (err as Error).message, where } };
        return { ok: false, error: { kind: NLI_FAILED_KIND, message: `entailment failed: ${errorMessage(err)}`, where } };
      }
    },
  };
}
