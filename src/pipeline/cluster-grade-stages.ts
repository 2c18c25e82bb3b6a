/**
 * The cluster and grade stages of a run, question by question: cached results are taken as
 * they are, missing ones computed with bounded concurrency and written back in batches. Only
 * successes are cached, so a question that failed (a judge that never gave a valid partition, a
 * dropped connection) is tried again on resume. Exact clustering and alias grading skip the
 * cache altogether (no key hashed, nothing read or written: stage-cache-keys.ts `cachesClustering`).
 */
import pLimit from 'p-limit';
import { classesToRowFields } from '../clustering/row-fields';
import type { Clusterer } from '../clustering/clusterer';
import type { StageCache, StoredClustering, StoredGrade } from '../model/stage-cache';
import type { RunMeter } from './run-meter';
import { BatchWriter } from '../model/write-batcher';
import type { RunSpec } from '../model/run-spec';
import { clusteringApiModel } from '../model/clustering-methods';
import { cachesClustering, cachesGrading, clusteringKey, gradeKey } from './stage-cache-keys';
import type { Grader } from '../grading/grader';
import { firstRowPerId, gradeToY, type AnswerSimilarity, type ClusteredRow, type GradedRow, type Question, type SampledRow, type StageError } from '../model/rows';
import { HUB_UNREACHABLE } from '../model/model-hub';

const WRITE_BATCH = 100;
/** A judge's clustering or grade was paid for: it waits at most this long before it is stored. */
const WRITE_DELAY_MS = 100;

export interface ClusterResult {
  rows: ClusteredRow[];
  excluded: { id: string; reason: string }[];
  /** Set when the clusterer's model cannot be had at all (the hub unreachable): the stage stopped at the first such failure. */
  stopped?: StageError;
}

function questionsById(spec: RunSpec): Map<string, Question> {
  return new Map(firstRowPerId(spec.dataset.questions).map((q) => [q.id, q]));
}

/**
 * The stage's cache writes, batched; a failed write does not stop the stage but surfaces at its
 * final `flush`, which the stage awaits.
 */
function batchedPut<T>(put: (items: T[]) => Promise<void>) {
  const writer = new BatchWriter<T>(put, { maxItems: WRITE_BATCH, maxDelayMs: WRITE_DELAY_MS });
  let failure: { error: unknown } | undefined;
  return {
    add(item: T) {
      writer.add([item]).catch((error: unknown) => (failure ??= { error }));
    },
    async flush() {
      await writer.flush();
      if (failure) throw failure.error;
    },
  };
}

export async function clusterStage(rows: SampledRow[], spec: RunSpec, clusterer: Clusterer, cache: StageCache, meter: RunMeter, notify: () => void, signal: AbortSignal): Promise<ClusterResult> {
  const byId = questionsById(spec);
  // A clusterer cheaper than its cache (exact) hashes no key and reads and writes nothing.
  const cacheable = cachesClustering(spec.clustering);
  const keys = cacheable ? await Promise.all(rows.map((r) => clusteringKey(byId.get(r.id) ?? { id: r.id, question: r.question, answer: r.gold_answer }, r.answer_extracted, spec.clustering))) : [];
  const cached = cacheable ? await cache.getClusterings(keys) : [];
  // A clusterer with a model of its own reuses only what that very model made (issue 25): the key
  // names the model's id, and each clustering records the loaded model's identity (a hash of its
  // config and weights), so a hub model updated under the same id clusters again. Read once, and
  // only when needed: to judge a hit that records one, or to store new clusterings. A model whose
  // identity cannot be read has its clusterings neither reused nor stored; its clusterer says why.
  const ownModel = cacheable ? clusterer.identity?.bind(clusterer) : undefined;
  let identityRead: Promise<string | undefined> | undefined;
  const identity = () => (identityRead ??= ownModel ? ownModel(signal).catch(() => undefined) : Promise.resolve(undefined));
  const current = cached.some((hit) => hit?.identity !== undefined) ? await identity() : undefined;
  // An entry stored before identities were recorded is still reused.
  const reusable = (hit: StoredClustering | undefined) => hit?.result.ok && (hit.identity === undefined || hit.identity === current);
  const writer = batchedPut<StoredClustering>((items) => cache.putClusterings(items));
  // A model's clusterings are stored at the stage's end, under its identity: read then, once, unless
  // the stage stopped on the model (so a model that cannot be had is not asked for it again).
  const awaitingIdentity: StoredClustering[] = [];
  const limit = pLimit(Math.max(1, spec.sampling.concurrency));
  const out: (ClusteredRow | null)[] = new Array(rows.length).fill(null);
  const excluded: ClusterResult['excluded'] = [];
  const judge = clusteringApiModel(spec.clustering) ?? null;
  // Every later question would fail the same way (and try the network again): said once, the rest not asked.
  let stopped: StageError | undefined;

  const finish = (i: number, classes: NonNullable<StoredClustering['result'] & { ok: true }>['classes'], similarity?: AnswerSimilarity) => {
    try {
      out[i] = { ...rows[i], ...classesToRowFields(classes, rows[i].answer_extracted.length, rows[i].selection_samples), ...(similarity ? { answer_similarity: similarity } : {}) };
    } catch (e) {
      excluded.push({ id: rows[i].id, reason: `clustering is not a partition: ${(e as Error).message}` });
    }
  };

  await Promise.all(
    rows.map((row, i) => {
      const hit = cached[i];
      if (reusable(hit) && hit?.result.ok) {
        finish(i, hit.result.classes, hit.result.similarity);
        meter.progress.stages.cluster.cached += 1;
        meter.advance();
        return undefined;
      }
      return limit(async () => {
        if (signal.aborted) return;
        if (stopped) {
          excluded.push({ id: row.id, reason: stopped.message });
          return;
        }
        const q = byId.get(row.id);
        const outcome = await clusterer.cluster(row.question, row.answer_extracted, signal, { options: q?.options });
        if (outcome.usage && judge) meter.addUsage(judge, outcome.usage);
        if (outcome.ok) {
          const made: StoredClustering = { key: keys[i], result: { ok: true, classes: outcome.value, ...(outcome.similarity ? { similarity: outcome.similarity } : {}) }, storedAt: Date.now() };
          if (ownModel) awaitingIdentity.push(made);
          else if (cacheable) writer.add(made);
          finish(i, outcome.value, outcome.similarity);
        } else if (!signal.aborted) {
          excluded.push({ id: row.id, reason: outcome.error.message });
          // The stop is said once, by the runner that ends the run on it.
          if (outcome.error.kind === HUB_UNREACHABLE) stopped ??= outcome.error;
          else if (!stopped) meter.error({ ...outcome.error, where: outcome.error.where ?? `clustering question ${row.id}` });
        }
        meter.advance();
        notify();
      });
    }),
  );
  const made = awaitingIdentity.length > 0 && !stopped ? await identity() : undefined;
  if (made) for (const item of awaitingIdentity) writer.add({ ...item, identity: made });
  await writer.flush();
  return { rows: out.filter((r): r is ClusteredRow => r !== null), excluded, ...(stopped ? { stopped } : {}) };
}

export interface GradeResult {
  /** One row per clustered row; Y is null where grading failed. */
  rows: GradedRow[];
  /** The questions whose grading failed, with the grader's reason. */
  excluded: { id: string; reason: string }[];
}

export async function gradeStage(rows: ClusteredRow[], spec: RunSpec, grader: Grader, cache: StageCache, meter: RunMeter, notify: () => void, signal: AbortSignal): Promise<GradeResult> {
  const excluded: GradeResult['excluded'] = [];
  const byId = questionsById(spec);
  const questionOf = (r: ClusteredRow): Question => byId.get(r.id) ?? { id: r.id, question: r.question, answer: r.gold_answer, aliases: r.gold_answer_aliases };
  // A grader cheaper than its cache (alias) hashes no key and reads and writes nothing.
  const cacheable = cachesGrading(spec.grading);
  const keys = cacheable ? await Promise.all(rows.map((r) => gradeKey(questionOf(r), r.modal_cluster_label, spec.grading))) : [];
  const cached = cacheable ? await cache.getGrades(keys) : [];
  const writer = batchedPut<StoredGrade>((items) => cache.putGrades(items));
  const limit = pLimit(Math.max(1, spec.sampling.concurrency));
  const judge = spec.grading.method === 'judge' ? spec.grading.judge : null;

  const graded = await Promise.all(
    rows.map(async (row, i): Promise<GradedRow> => {
      const base = { id: row.id, model: row.model, question: row.question, gold_answer: row.gold_answer, modal_cluster_label: row.modal_cluster_label };
      const hit = cached[i];
      if (hit?.result.ok) {
        meter.progress.stages.grade.cached += 1;
        meter.advance();
        return { ...base, grade: hit.result.grade, Y: gradeToY(hit.result.grade) };
      }
      return limit(async () => {
        if (signal.aborted) return { ...base, grade: null, Y: null };
        const q = questionOf(row);
        const outcome = await grader.grade({ id: q.id, question: q.question, gold: q.answer, aliases: q.aliases, options: q.options, predicted: row.modal_cluster_label }, signal);
        if (outcome.usage && judge) meter.addUsage(judge, outcome.usage);
        meter.advance();
        notify();
        if (!outcome.ok) {
          if (!signal.aborted) {
            meter.error({ ...outcome.error, where: outcome.error.where ?? `grading question ${row.id}` });
            excluded.push({ id: row.id, reason: `grading failed: ${outcome.error.message}` });
          }
          return { ...base, grade: null, Y: null };
        }
        if (cacheable) writer.add({ key: keys[i], result: { ok: true, grade: outcome.value }, storedAt: Date.now() });
        return { ...base, grade: outcome.value, Y: gradeToY(outcome.value) };
      });
    }),
  );
  await writer.flush();
  return { rows: graded, excluded };
}
