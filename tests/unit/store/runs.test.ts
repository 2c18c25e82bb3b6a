/**
 * Run records keep their questions apart (record version 2, DB version 7): written once with the
 * run, not with every checkpoint; version-1 records (questions inline) still read, and move apart
 * on their next save.
 */
import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { openStores, type Stores } from '../../../src/store/stores';
import type { Question } from '../../../src/model/rows';
import type { RunRecord } from '../../../src/model/run-spec';
import { runRecord } from './run-record-fixture';

const fresh = (): Promise<Stores> => openStores(`runs-${Math.random()}`);
const questions = (count: number): Question[] => Array.from({ length: count }, (_, i) => ({ id: `q${i}`, question: `Question ${i}?`, answer: `A${i}`, ...(i % 2 ? { aliases: [`a${i}`] } : {}) }));
const run = (id: string, qs = questions(5)): RunRecord => {
  const r = runRecord(id, '2026-01-01T00:00:00.000Z');
  return { ...r, spec: { ...r.spec, dataset: { ...r.spec.dataset, questions: qs } } };
};
/** Marks the stored questions record, so a test can tell whether a save wrote it again. */
const mark = (s: Stores, id: string) => s.db.put('runQuestions', { runId: id, questions: [{ id: 'marker', question: 'untouched?', answer: 'yes' }] });

test('checkpoints of a run write its record only: the questions are written once, with the first save', async () => {
  const s = await fresh();
  const r = run('r');
  await s.runs.saveRun(r);
  expect(await s.db.get('runQuestions', 'r')).toEqual({ runId: 'r', questions: r.spec.dataset.questions });
  await mark(s, 'r');
  // The runner's checkpoints: the same run object, its progress moved on.
  r.progress.samples.done = 3;
  r.status = 'paused';
  await s.runs.saveRun(r);
  await s.runs.saveRun({ ...r, status: 'cancelled' });
  expect((await s.db.get('runQuestions', 'r'))?.questions.map((q) => q.id)).toEqual(['marker']);
  expect(await s.db.get('runs', 'r')).toMatchObject({ status: 'cancelled', progress: { samples: { done: 3 } }, questionCount: 5, spec: { dataset: { questions: [] } } });
});

test('a run read back has its questions; saving what was read writes the record only; a new question list is written', async () => {
  const s = await fresh();
  await s.runs.saveRun(run('r'));
  const read = await s.runs.getRun('r');
  expect(read).toEqual(run('r'));
  const listed = await s.runs.listRuns();
  expect(listed.runs).toEqual([run('r')]);

  // Another store over the same database (another tab's worker) reads the run, then checkpoints it.
  const other = await openStores(s.db.name);
  const theirs = (await other.runs.getRun('r'))!;
  await mark(s, 'r');
  await other.runs.saveRun({ ...theirs, status: 'paused' });
  expect((await s.db.get('runQuestions', 'r'))?.questions.map((q) => q.id)).toEqual(['marker']);
  // A list it never wrote or read is written.
  await other.runs.saveRun({ ...theirs, spec: { ...theirs.spec, dataset: { ...theirs.spec.dataset, questions: questions(2) } } });
  expect((await s.db.get('runQuestions', 'r'))?.questions).toEqual(questions(2));
  expect((await s.runs.getRun('r'))?.spec.dataset.questions).toEqual(questions(2));
});

test('a version-1 record (questions inline) reads as it was and moves its questions apart on its next save', async () => {
  const s = await fresh();
  const old = run('old', questions(3));
  await s.db.put('runs', old);
  expect(await s.runs.getRun('old')).toEqual(old);
  expect((await s.runs.listRuns()).runs).toEqual([old]);
  const read = (await s.runs.getRun('old'))!;
  await s.runs.saveRun({ ...read, status: 'paused' });
  expect(await s.db.get('runs', 'old')).toMatchObject({ version: 2, questionCount: 3, spec: { dataset: { questions: [] } } });
  expect((await s.db.get('runQuestions', 'old'))?.questions).toEqual(questions(3));
  expect(await s.runs.getRun('old')).toEqual({ ...old, status: 'paused' });
});

test('a record whose questions are lost or do not match is unreadable, naming why; deleting a run deletes its questions', async () => {
  const s = await fresh();
  await s.runs.saveRun(run('lost'));
  await s.runs.saveRun(run('short'));
  await s.runs.saveRun(run('kept', []));
  await s.db.delete('runQuestions', 'lost');
  await s.db.put('runQuestions', { runId: 'short', questions: questions(4) });
  await expect(s.runs.getRun('lost')).rejects.toMatchObject({ kind: 'stored-record', where: 'runs/lost', message: 'The stored run "lost" has lost its questions (runQuestions/lost is missing).' });
  await expect(s.runs.getRun('short')).rejects.toMatchObject({ where: 'runQuestions/short', message: 'The stored questions of run "short" are 4, but its record counts 5.' });
  const listed = await s.runs.listRuns();
  expect(listed.runs.map((r) => r.id)).toEqual(['kept']);
  expect(listed.unreadable.map((u) => u.id).sort()).toEqual(['lost', 'short']);
  await s.runs.deleteRun('short');
  expect(await s.db.get('runQuestions', 'short')).toBeUndefined();
  expect(await s.db.get('runs', 'short')).toBeUndefined();
  // Saved again after a delete (a checkpoint of a run still going): record and questions both.
  await s.runs.saveRun(run('short'));
  expect(await s.runs.getRun('short')).toEqual(run('short'));
});
