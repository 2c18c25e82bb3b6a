/**
 * Cache keys of the stages after sampling. Each is a hash of exactly what that stage's output
 * depends on, so changing the clusterer misses the clustering cache (and, through the modal
 * label, grading) but never sampling. A clustering is keyed by the answers themselves rather
 * than by sample keys: equal samples give equal answers, and content keys also let two runs
 * whose samples differ only in ignored fields share a clustering.
 */
import type { ClusteringSpec, GradingSpec } from '../model/run-spec';
import { canonicalJson } from '../model/sample-cache';
import type { Question } from '../model/rows';
import { sha256Hex } from '../model/hash';
import { cachesClusteringOf, clustererCacheIdentity, modelCacheIdentity } from '../clustering/clusterer-registry';
import { GRADER_PROMPT_VERSION } from '../grading/grade-judge-prompt';

/** What of a clustering's settings its key holds: the method's own (clustering/clusterer-registry.ts `cacheIdentity`). */
export function clustererIdentity(spec: ClusteringSpec): unknown {
  return clustererCacheIdentity(spec);
}

export function graderIdentity(spec: GradingSpec): unknown {
  return spec.method === 'alias' ? { method: 'alias' } : { method: 'judge', judge: modelCacheIdentity(spec.judge), prompt: spec.prompt ?? null, promptVersion: GRADER_PROMPT_VERSION };
}

/**
 * Whether a clusterer's results go through the stage cache (its row's `cached`). Exact-match
 * clustering is a cheap, deterministic function of the answers: hashing its key and reading and
 * writing the cache cost more than clustering again (issue 16: about 10 s of a 40,000-question
 * first report for exact and alias together), so it is recomputed every time. The judge costs
 * requests and money, and the clusterers with a model of their own run it: theirs are cached.
 */
export function cachesClustering(spec: ClusteringSpec): boolean {
  return cachesClusteringOf(spec);
}

/** Whether a grader's results go through the stage cache: the alias grader is recomputed, for the reason above; the judge is cached. */
export function cachesGrading(spec: GradingSpec): boolean {
  return spec.method !== 'alias';
}

export async function clusteringKey(question: Question, answers: string[], spec: ClusteringSpec): Promise<string> {
  return `c1:${await sha256Hex(canonicalJson({ q: question.question, options: question.options ?? null, answers, by: clustererIdentity(spec) }))}`;
}

export async function gradeKey(question: Question, modalLabel: string, spec: GradingSpec): Promise<string> {
  const gold = { q: question.question, answer: question.answer, aliases: question.aliases ?? null, options: question.options ?? null };
  return `g1:${await sha256Hex(canonicalJson({ gold, modalLabel, by: graderIdentity(spec) }))}`;
}
