/**
 * A run's judge clustering through batch mode: the judge requests for every question whose samples
 * are all stored and whose clustering is not cached yet, and the results stored in the clustering
 * cache under the runner's keys. Questions the batch could not cluster are left to the run, whose
 * cluster stage calls the judge interactively (with its retries) for whatever is not cached.
 */
import type { RunSpec } from '../model/run-spec.ts';
import { clusteringKey } from '../pipeline/stage-cache-keys.ts';
import { type SampleCache, readQuestions } from '../model/sample-cache.ts';
import { questionKeyBase } from '../pipeline/sampling.ts';
import { samplingSettingsOf } from '../pipeline/sample-keys.ts';
import { firstRowPerId, type Question, type Result } from '../model/rows.ts';
import type { StageCache } from '../model/stage-cache.ts';
import type { BatchService, BatchStatus } from './service.ts';
import { JudgeRequestSet, clusteringEntries } from './judge-request-set.ts';
import type { LineSource } from './jsonl.ts';
import { inParts } from './split-by-limits.ts';
import { type PollOptions, pollUntilEnded } from './poll.ts';
import { batchApiOf } from './run-request-set.ts';
import type { LineProblem } from './outcomes.ts';

export interface JudgePlan {
  set: JudgeRequestSet;
  lines: { customId: string; questionId: string; line: Record<string, unknown> }[];
  counts: { rows: number; cached: number; unsampled: number };
}

/** Questions read from the sample cache at once (one range read each, one transaction, where the cache has it). */
const READ_CHUNK = 64;

export async function planRunJudge(spec: RunSpec, samples: SampleCache, stages: StageCache): Promise<Result<JudgePlan>> {
  const c = spec.clustering;
  if (c.method !== 'judge') return { ok: false, error: { kind: 'settings', message: 'This run does not group answers with an LLM judge.' } };
  const api = batchApiOf(c.judge);
  if (!api) return { ok: false, error: { kind: 'settings', message: `The judge ${c.judge.preset}/${c.judge.model} has no batch service this app can use.` } };
  const s = spec.sampling;
  // The samples' own keys (with logprobs where the run asked for them).
  const settings = samplingSettingsOf(s);
  const rows: { id: string; question: string; answer_extracted: string[] }[] = [];
  const counts = { rows: 0, cached: 0, unsampled: 0 };
  const questions = firstRowPerId(spec.dataset.questions);
  for (const model of spec.models) {
    for (let from = 0; from < questions.length; from += READ_CHUNK) {
      const chunk = questions.slice(from, from + READ_CHUNK);
      const bases = await Promise.all(chunk.map((q) => questionKeyBase({ config: model }, settings, s.prompt, q)));
      const read = await readQuestions(samples, bases, s.n);
      for (const [j, q] of chunk.entries()) {
        const stored = read[j];
        if (stored.some((x) => x === undefined)) {
          counts.unsampled++;
          continue;
        }
        const answers = stored.map((x) => x!.answer);
        const [hit] = await stages.getClusterings([await clusteringKey(q, answers, c)]);
        if (hit?.result.ok) {
          counts.cached++;
          continue;
        }
        rows.push({ id: q.id, question: q.question, answer_extracted: answers });
      }
    }
  }
  counts.rows = rows.length;
  const set = await JudgeRequestSet.create({ kind: api, preset: c.judge.preset, baseUrl: c.judge.baseUrl, model: c.judge.model }, rows, c.prompt);
  return { ok: true, value: { set, lines: set.requests(), counts } };
}

export interface JudgeStoreReport {
  stored: number;
  failed: number;
  problems: LineProblem[];
  /** Questions with a line in the results, stored or failed (the batch asked them: they are not submitted again). */
  answered: string[];
}

export async function storeRunJudgeResults(spec: RunSpec, set: JudgeRequestSet, stages: StageCache, source: LineSource, file: string): Promise<JudgeStoreReport> {
  const { outcomes, problems } = await set.ingest(source, file);
  const questions = new Map<string, Question>(spec.dataset.questions.map((q) => [q.id, q]));
  const entries = await clusteringEntries(outcomes, questions, spec.clustering);
  await stages.putClusterings(entries);
  return { stored: entries.length, failed: outcomes.filter((o) => !o.result.ok).length, problems, answered: outcomes.map((o) => o.questionId) };
}

/** A judge submission's options: the poll's, and the batches kept with the run (batch/pending-batches.ts). */
export interface RunJudgeOptions extends PollOptions {
  /** Judge batches submitted earlier and not yet collected: collected first, their questions not submitted again. */
  pendingIds?: string[];
  /** Called when a batch is submitted, before any wait, and when its results are stored. */
  onSubmitted?: (id: string, requests: number) => void | Promise<void>;
  onCollected?: (id: string) => void | Promise<void>;
  /** Only the pending batches are collected: nothing is submitted. */
  collectOnly?: boolean;
}

/** Collects the pending batches, then submits the plan's requests the batches did not carry, waits for each batch, and stores what came back. */
export async function submitRunJudge(spec: RunSpec, plan: JudgePlan, stages: StageCache, service: BatchService, opts: RunJudgeOptions = {}): Promise<JudgeStoreReport> {
  const total: JudgeStoreReport = { stored: 0, failed: 0, problems: [], answered: [] };
  const collect = async (first: BatchStatus) => {
    const status = await pollUntilEnded(service, first, opts);
    for (const f of await service.results(status, opts.signal)) {
      const r = await storeRunJudgeResults(spec, plan.set, stages, f.lines, f.name);
      total.stored += r.stored;
      total.failed += r.failed;
      total.problems.push(...r.problems);
      total.answered.push(...r.answered);
    }
    await opts.onCollected?.(status.id);
  };
  for (const id of opts.pendingIds ?? []) await collect(await service.status(id, opts.signal));
  if (opts.collectOnly) return total;
  const asked = new Set(total.answered);
  async function* lines() {
    yield* plan.lines.filter((l) => !asked.has(l.questionId));
  }
  const submitted: BatchStatus[] = [];
  for await (const part of inParts(service.api, lines())) {
    const status = await service.submit(part.map((p) => p.line), opts.signal);
    await opts.onSubmitted?.(status.id, part.length);
    submitted.push(status);
  }
  for (const first of submitted) await collect(first);
  return total;
}
