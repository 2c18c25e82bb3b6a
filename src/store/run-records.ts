/**
 * Reading a run record back: upgraded from the version it was saved at (RUN_VERSIONS; a record
 * of version 1 carries no version field) and checked against the fields the runner, the worker
 * and the Runs page rely on. Fields the check does not name are kept as they are. From version 2
 * the dataset's questions are stored apart (`runQuestions`) and joined in here.
 */
import { z } from 'zod';
import { formatPath } from '../formats/field-path';
import { runSpecSchema } from '../formats/run-spec-schema';
import { STAGES, type RunRecord } from '../model/run-spec';
import { isRecord, StoredRecordError, upgradeToCurrent, type DocumentVersions } from './stored-records';
import type { StoredRun, StoredRunQuestions } from './schema';

/**
 * Run record versions; a step per version once the record's shape changes. 2: the questions
 * apart, joined in before the upgrade, so the step from 1 (questions inline) changes nothing.
 */
export const RUN_VERSIONS: DocumentVersions = { current: 2, steps: { 1: (record) => record } };

const text = z.string();
const stageError = z.looseObject({ kind: text, message: text });
const stageProgress = z.looseObject({ status: z.enum(['waiting', 'running', 'done', 'failed', 'skipped']), done: z.number(), total: z.number(), cached: z.number() });

const runRecord = z.looseObject({
  id: text,
  title: text,
  createdAt: text,
  updatedAt: text,
  status: z.enum(['queued', 'running', 'paused', 'cancelled', 'failed', 'done']),
  // The same check the New run wizard reads its draft back through (formats/run-spec-schema.ts).
  spec: runSpecSchema,
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

/** A record of version 2 or later with its questions, stored apart, put back in. */
function withQuestions(record: Record<string, unknown>, count: unknown, apart: StoredRunQuestions | undefined, key: string): Record<string, unknown> {
  const where = `runs/${key}`;
  const spec = record.spec;
  // A record without a dataset is left for the check below to name.
  if (!isRecord(spec) || !isRecord(spec.dataset)) return record;
  if (apart === undefined) {
    if (count === 0) return record;
    throw new StoredRecordError(where, `The stored run "${key}" has lost its questions (runQuestions/${key} is missing).`);
  }
  if (!Array.isArray(apart.questions)) throw new StoredRecordError(`runQuestions/${key}`, `The stored questions of run "${key}" are not a list.`);
  if (typeof count === 'number' && apart.questions.length !== count) {
    throw new StoredRecordError(`runQuestions/${key}`, `The stored questions of run "${key}" are ${apart.questions.length}, but its record counts ${count}.`);
  }
  return { ...record, spec: { ...spec, dataset: { ...spec.dataset, questions: apart.questions } } };
}

/**
 * The stored run as a valid, current record; throws a StoredRecordError naming what is wrong.
 * `apart` is the run's `runQuestions` record (read for records of version 2 on).
 */
export function readStoredRun(key: string, stored: unknown, apart?: StoredRunQuestions): RunRecord {
  const where = `runs/${key}`;
  if (!isRecord(stored)) throw new StoredRecordError(where, `The stored run "${key}" is not a run record.`);
  const { version, questionCount, ...record } = stored as unknown as StoredRun;
  const joined = typeof version === 'number' && version >= 2 ? withQuestions(record, questionCount, apart, key) : record;
  const current = upgradeToCurrent(joined, version ?? 1, RUN_VERSIONS, where, `run "${key}"`);
  const checked = runRecord.safeParse(current);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new StoredRecordError(where, `The stored run "${key}" cannot be read: ${formatPath(issue.path)}: ${issue.message}`);
  }
  return current as RunRecord;
}

/** Whether a stored record keeps its questions apart (version 2 on), so they are read from `runQuestions`. */
export function questionsApart(stored: unknown): boolean {
  return isRecord(stored) && typeof stored.version === 'number' && stored.version >= 2;
}

/** The record as it is written: with the version of its shape, its questions left out (stored apart) and counted. */
export function toStoredRun(run: RunRecord): StoredRun {
  const questions = run.spec.dataset.questions;
  return { ...run, spec: { ...run.spec, dataset: { ...run.spec.dataset, questions: [] } }, questionCount: questions.length, version: RUN_VERSIONS.current };
}
