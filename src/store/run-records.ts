/**
 * Reading a run record back: upgraded from the version it was saved at (RUN_VERSIONS; a record
 * of version 1 carries no version field) and checked against the fields the runner, the worker
 * and the Runs page rely on. Fields the check does not name are kept as they are.
 */
import { z } from 'zod';
import { formatPath } from '../formats/report-schema';
import { STAGES, type RunRecord } from '../model/run-spec';
import { isRecord, StoredRecordError, upgradeToCurrent, type DocumentVersions } from './stored-records';
import type { StoredRun } from './schema';

/** Run record versions; a step per version once the record's shape changes. */
export const RUN_VERSIONS: DocumentVersions = { current: 1, steps: {} };

const text = z.string();
const count = z.number().int().min(0);
const modelSpec = z.looseObject({ kind: z.enum(['openai', 'anthropic', 'gemini', 'in-browser']), preset: text, baseUrl: text, model: text });
const prompt = z.looseObject({ system: text, user: text }).optional();
const question = z.looseObject({ id: text, question: text, answer: text, aliases: z.array(text).optional(), options: z.array(text).optional() });
const stageError = z.looseObject({ kind: text, message: text });
const stageProgress = z.looseObject({ status: z.enum(['waiting', 'running', 'done', 'failed', 'skipped']), done: z.number(), total: z.number(), cached: z.number() });

const runRecord = z.looseObject({
  id: text,
  title: text,
  createdAt: text,
  updatedAt: text,
  status: z.enum(['queued', 'running', 'paused', 'cancelled', 'failed', 'done']),
  spec: z.looseObject({
    title: text,
    dataset: z.looseObject({ name: text, source: text, questions: z.array(question) }),
    models: z.array(modelSpec),
    sampling: z.looseObject({ n: count, temperature: z.number(), maxTokens: count, prompt: text, concurrency: count }),
    clustering: z.discriminatedUnion('method', [
      z.looseObject({ method: z.literal('exact') }),
      z.looseObject({ method: z.literal('judge'), judge: modelSpec, prompt }),
      z.looseObject({ method: z.literal('embedding'), model: text, threshold: z.number() }),
      z.looseObject({ method: z.literal('entailment'), model: text }),
    ]),
    grading: z.discriminatedUnion('method', [z.looseObject({ method: z.literal('alias') }), z.looseObject({ method: z.literal('judge'), judge: modelSpec, prompt })]),
    mc: z.looseObject({ runs: count, seed: z.number(), samples: count, logprobs: z.boolean() }).optional(),
  }),
  progress: z.looseObject({
    stage: z.enum(STAGES),
    stages: z.object(Object.fromEntries(STAGES.map((s) => [s, stageProgress])) as Record<(typeof STAGES)[number], typeof stageProgress>),
    requests: z.looseObject({ done: z.number(), failed: z.number() }),
    samples: z.looseObject({ done: z.number(), total: z.number() }),
    tokens: z.looseObject({ input: z.number(), output: z.number() }),
    cost: z.number().nullable(),
    errors: z.array(stageError),
    notes: z.array(text),
  }),
  error: stageError.optional(),
  reportId: text.optional(),
});

/** The stored run as a valid, current record; throws a StoredRecordError naming what is wrong. */
export function readStoredRun(key: string, stored: unknown): RunRecord {
  const where = `runs/${key}`;
  if (!isRecord(stored)) throw new StoredRecordError(where, `The stored run "${key}" is not a run record.`);
  const { version, ...record } = stored as unknown as StoredRun;
  const current = upgradeToCurrent(record, version ?? 1, RUN_VERSIONS, where, `run "${key}"`);
  const checked = runRecord.safeParse(current);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new StoredRecordError(where, `The stored run "${key}" cannot be read: ${formatPath(issue.path)}: ${issue.message}`);
  }
  return current as RunRecord;
}

/** The record as it is written: with the version of its shape. */
export function toStoredRun(run: RunRecord): StoredRun {
  return { ...run, version: RUN_VERSIONS.current };
}
