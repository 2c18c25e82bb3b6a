/**
 * One interface for every clusterer (LLM judge, embeddings, exact match, entailment): the extracted answers
 * of one question in, semantic classes out, in the order the clusterer lists them. That order is
 * the class numbering the estimators use (SEMECE.md: never renumber), so it is kept as returned.
 */
import type { AnswerSimilarity, Result, SemanticClass } from '../model/rows';
import type { Usage } from '../model/provider';
import type { ClusteringMethodName } from '../model/clustering-methods';

/** Per-question extras some clusterers need (multiple-choice options, in order A, B, C …). */
export interface ClusterContext {
  options?: string[];
}

/**
 * What one clustering of one question gives back. `usage` and `calls` let the caller add up the
 * cost of model-backed clusterers (the judge); clusterers without a model leave them out.
 */
export type ClusterOutcome = Result<SemanticClass[]> & {
  usage?: Usage;
  /** Model requests made for this question, retries included. */
  calls?: number;
  /** The answers' pairwise similarity, where the clusterer measured one (embedding); kept in the row. */
  similarity?: AnswerSimilarity;
};

export interface Clusterer {
  /** Its method (model/clustering-methods.ts), recorded with the run so caches key on it. */
  readonly method: ClusterMethod;
  /**
   * Classes for `answers` (sampling order): every index 0..n-1 in exactly one class.
   * Expected failures (a judge that never returns a valid partition, a cancelled request) come
   * back as `{ok: false, error}`, never as a throw.
   */
  cluster(question: string, answers: string[], signal?: AbortSignal, context?: ClusterContext): Promise<ClusterOutcome>;
  /**
   * The identity of the model it runs itself (transformers/model-identity.ts: a hash of its config and
   * weights), known once the model is loaded; absent for clusterers without one. A cached clustering
   * is reused only under the same identity (pipeline/cluster-grade-stages.ts).
   */
  identity?(signal?: AbortSignal): Promise<string>;
}

export type ClusterMethod = ClusteringMethodName;
