/**
 * Cache keys of the stages after sampling. Each is a hash of exactly what that stage's output
 * depends on, so changing the clusterer misses the clustering cache (and, through the modal
 * label, grading) but never sampling. A clustering is keyed by the answers themselves rather
 * than by sample keys: equal samples give equal answers, and content keys also let two runs
 * whose samples differ only in ignored fields share a clustering.
 */
import type { ClusteringSpec, GradingSpec, ModelSpec } from '../model/run-spec';
import { canonicalJson } from '../model/sample-cache';
import type { Question } from '../model/rows';
import { sha256Hex } from '../model/hash';
import { JUDGE_PROMPT_VERSION } from '../clustering/judge-prompt';
import { ENTAILMENT_RULE_VERSION } from '../clustering/entailment';
import { GRADER_PROMPT_VERSION } from '../grading/judge-prompt';

/** The parts of a model spec that change its output (not concurrency or timeouts). */
function modelIdentity(m: ModelSpec) {
  return { preset: m.preset, baseUrl: m.baseUrl.replace(/\/+$/, ''), model: m.model };
}

export function clustererIdentity(spec: ClusteringSpec): unknown {
  switch (spec.method) {
    case 'exact':
      return { method: 'exact' };
    case 'judge':
      return { method: 'judge', judge: modelIdentity(spec.judge), prompt: spec.prompt ?? null, promptVersion: JUDGE_PROMPT_VERSION };
    case 'embedding':
      return { method: 'embedding', model: spec.model, threshold: spec.threshold };
    case 'entailment':
      // The NLI model decides every pair; the rule's version changes with the rule (clustering/entailment.ts).
      return { method: 'entailment', model: spec.model, rule: ENTAILMENT_RULE_VERSION };
  }
}

export function graderIdentity(spec: GradingSpec): unknown {
  return spec.method === 'alias' ? { method: 'alias' } : { method: 'judge', judge: modelIdentity(spec.judge), prompt: spec.prompt ?? null, promptVersion: GRADER_PROMPT_VERSION };
}

/**
 * Whether a clusterer's results go through the stage cache. Exact-match clustering is a cheap,
 * deterministic function of the answers: hashing its key and reading and writing the cache cost
 * more than clustering again (issue 16: about 10 s of a 40,000-question first report for exact and
 * alias together), so it is recomputed every time. The judge costs requests and money, and the
 * embedding and entailment clusterers run a model: theirs are cached.
 */
export function cachesClustering(spec: ClusteringSpec): boolean {
  return spec.method !== 'exact';
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
