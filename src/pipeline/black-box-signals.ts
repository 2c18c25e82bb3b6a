/**
 * The black-box uncertainty signals of one question (issue 29), as the score stage stores them:
 * each signal's confidence form (core/black-box-uncertainty.ts blackBoxConfidence; larger = more
 * confident, in [0, 1], not a probability), keyed by its name in the signals table.
 *
 * Inputs, as the signals table lists them:
 * - the clustering's partition (each sample's class): semantic entropy, NumSets, and the graph
 *   methods EigV, Deg and Ecc over the 0/1 same-class matrix, by their closed forms from the class
 *   sizes (one pass; on a partition 1/EigV = 1/K = 1/(1 + Ecc²), so three of the confidence
 *   forms coincide there). Semantic entropy is the question's `entropy` the estimators already
 *   computed, so semantic_entropy is bit for bit the report's entropyConfidence.
 * - the answers' text: lexical similarity (mean pairwise ROUGE-L F); absent when the rows carry no
 *   answers (a report that keeps none, the CLI reading rows without them) or fewer than two.
 * - the answers' similarity where the clustering recorded one (an embedding clustering's cosines
 *   between its groups of identical answers, rows' answer_similarity): the graph methods over it,
 *   as `groupSimilarity` (a g×g eigenproblem per question). The score stage passes it only where
 *   every question's row holds one, so a report's graph signals are all over one kind of matrix.
 *   The entailment clusterer records none: its NLI model gives a label per pair (not the
 *   probabilities the graph methods weigh), and only for pairs with a class's first member.
 * Hook: an m×m similarity of the samples can be passed as `similarity` (core graphUncertainty,
 * about 1.6 ms a question at m = 50).
 */
import { blackBoxConfidence, type BlackBoxSignal } from '../core/black-box-uncertainty';
import { classSizeGraphUncertainty, graphUncertainty } from '../core/graph-uncertainty';
import { lexicalSimilarity } from '../core/lexical-similarity';
import { groupedGraphUncertainty } from '../core/grouped-graph-uncertainty';
import type { AnswerSimilarity } from '../model/rows';
import type { QuestionEstimates } from '../core/types';
import { BLACK_BOX_SIGNAL_NAMES, signalInfo, type SignalName } from '../model/signals';

export interface BlackBoxQuestion {
  /** The question's estimates (class sizes, entropy, non-empty classes). */
  estimates: Pick<QuestionEstimates, 'sizes' | 'entropy' | 'nonEmptyClasses' | 'n'>;
  /** The samples' answers in sampling order (one per sample), or undefined when the rows carry none. */
  answers?: readonly (string | null)[];
  /** Row-major n×n similarity of the samples (the hook above); omitted: the partition. */
  similarity?: ArrayLike<number>;
  /**
   * The similarity between groups of identical answers (g×g, row-major) with the group sizes, as an
   * embedding clustering records it (rows' answer_similarity): the graph signals over it
   * (core/grouped-graph-uncertainty.ts, a g×g eigenproblem) instead of the partition.
   */
  groupSimilarity?: { matrix: ArrayLike<number>; sizes: ArrayLike<number> };
}

/** A row's answer similarity as the graph signals read it: the group matrix and each group's size. */
export function groupSimilarityOf(sim: AnswerSimilarity): { matrix: number[]; sizes: number[] } {
  const g = Math.round(Math.sqrt(sim.matrix.length));
  const sizes = new Array<number>(g).fill(0);
  for (const a of sim.groups) sizes[a] += 1;
  return { matrix: sim.matrix, sizes };
}

/** The black-box signals among `wanted` (default: all of them), in the table's order. */
export function blackBoxSignalsWanted(wanted?: readonly SignalName[]): SignalName[] {
  return BLACK_BOX_SIGNAL_NAMES.filter((s) => !wanted || wanted.includes(s));
}

/** The confidence form of each wanted black-box signal of one question; a signal it cannot have is left out. */
export function blackBoxSignalValues(q: BlackBoxQuestion, wanted: readonly SignalName[]): Partial<Record<SignalName, number>> {
  const out: Partial<Record<SignalName, number>> = {};
  if (wanted.length === 0) return out;
  const { estimates: e } = q;
  let graph: { eigV: number; deg: number; ecc: number } | undefined;
  for (const name of wanted) {
    const key = signalInfo(name).blackBox as BlackBoxSignal;
    let raw: number;
    switch (key) {
      case 'semanticEntropy':
        raw = e.entropy;
        break;
      case 'numSets':
        raw = e.nonEmptyClasses;
        break;
      case 'eigV':
      case 'deg':
      case 'ecc':
        graph ??=
          q.similarity !== undefined ? graphUncertainty(q.similarity, e.n)
          : q.groupSimilarity !== undefined ? groupedGraphUncertainty(q.groupSimilarity.matrix, q.groupSimilarity.sizes)
          : classSizeGraphUncertainty(e.sizes);
        raw = graph[key];
        break;
      case 'lexicalSimilarity':
        if (!q.answers || q.answers.length !== e.n) continue;
        raw = lexicalSimilarity(q.answers.map((a) => a ?? ''));
        break;
    }
    const v = blackBoxConfidence(key, raw);
    if (Number.isFinite(v)) out[name] = v;
  }
  return out;
}
