/**
 * The judges' results cached as they arrive, as `semece sample` caches samples: every clustering
 * and every grade a judge gives is appended to a JSONL file beside --out, under the same keys the
 * app's run uses (pipeline/stage-cache-keys.ts: the question, the answers or the modal label, the
 * judge model and the prompt version), so a repeated or resumed command pays for none of them
 * twice. Only successes are stored: a question the judge failed on is asked again.
 */
import type { ClusteringSpec, GradingSpec, ModelSpec } from '../src/model/run-spec.ts';
import type { Grade, SemanticClass } from '../src/model/rows.ts';
import type { ProviderConfig } from '../src/model/provider.ts';
import { clusteringKey, gradeKey } from '../src/pipeline/stage-cache-keys.ts';
import type { Clusterer } from '../src/clustering/clusterer.ts';
import { GRADES, type Grader } from '../src/grading/grader.ts';
import { JsonlRecords } from './jsonl-records.ts';

/** The judge as the cache keys know it: never the key. */
export function judgeSpec(config: ProviderConfig): ModelSpec {
  const { apiKey: _key, ...spec } = config;
  return spec;
}

const isClasses = (v: unknown): v is SemanticClass[] =>
  Array.isArray(v) && v.every((c) => typeof c?.label === 'string' && Array.isArray(c.members) && c.members.every((m: unknown) => Number.isInteger(m)));

const isGrade = (v: unknown): v is Grade => (GRADES as readonly unknown[]).includes(v);

/** Whether the classes cover 0..n-1 once each: a record for other answers is not reused. */
function partitions(classes: SemanticClass[], n: number): boolean {
  const seen = new Uint8Array(n);
  let count = 0;
  for (const c of classes) {
    for (const m of c.members) {
      if (m < 0 || m >= n || seen[m]) return false;
      seen[m] = 1;
      count++;
    }
  }
  return count === n;
}

export const clusteringCache = (path: string) => new JsonlRecords(path, 'classes', isClasses);
export const gradeCache = (path: string) => new JsonlRecords(path, 'grade', isGrade);

/** Loads a judge cache and says what it found: a torn line dropped, results already there (`what`: "clustering(s)", "grade(s)"; `redo`: "judged", "graded"). */
export async function loadJudgeCache<T>(cache: JsonlRecords<T>, what: string, redo: string, err: (line: string) => void): Promise<JsonlRecords<T>> {
  await cache.load();
  if (cache.damagedLines > 0) err(`${cache.path}: dropped ${cache.damagedLines} unreadable line(s) left by a write cut short; those questions are ${redo} again.`);
  if (cache.size > 0) err(`resuming: ${cache.size} ${what} already in ${cache.path}`);
  return cache;
}

/** The judge clusterer, answering from `cache` where it can and storing each new partition. */
export function cachingClusterer(inner: Clusterer, spec: ClusteringSpec, cache: JsonlRecords<SemanticClass[]>, counts: { cached: number }): Clusterer {
  return {
    method: inner.method,
    async cluster(question, answers, signal, context) {
      const key = await clusteringKey({ id: '', question, answer: '', options: context?.options }, answers, spec);
      const hit = cache.get(key);
      if (hit && partitions(hit, answers.length)) {
        counts.cached++;
        return { ok: true, value: hit, calls: 0 };
      }
      const outcome = await inner.cluster(question, answers, signal, context);
      if (outcome.ok) await cache.put([{ key, value: outcome.value }]);
      return outcome;
    },
  };
}

/** The judge grader, answering from `cache` where it can and storing each new verdict. */
export function cachingGrader(inner: Grader, spec: GradingSpec, cache: JsonlRecords<Grade>, counts: { cached: number }): Grader {
  return {
    method: inner.method,
    async grade(item, signal) {
      const question = { id: item.id ?? '', question: item.question, answer: item.gold, aliases: item.aliases, options: item.options };
      const key = await gradeKey(question, item.predicted, spec);
      const hit = cache.get(key);
      if (hit) {
        counts.cached++;
        return { ok: true, value: hit, calls: 0 };
      }
      const outcome = await inner.grade(item, signal);
      if (outcome.ok) await cache.put([{ key, value: outcome.value }]);
      return outcome;
    },
  };
}
