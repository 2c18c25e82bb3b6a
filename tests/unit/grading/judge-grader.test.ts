import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MockProviderServer, type ParsedRequest } from '../../mock/provider-server';
import { createProvider } from '../../../src/providers/create-provider';
import { createJudgeGrader, parseVerdict } from '../../../src/grading/judge-grader';
import { createAliasGrader } from '../../../src/grading/alias';
import { gradeRow, type ClusteredRowIn } from '../../../src/grading/graded-rows';

let mock: MockProviderServer;
let script: string[] = [];
let seen: ParsedRequest[] = [];
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: 'mock-key' });
  mock.responder = (req) => {
    seen.push(req);
    return script.shift() ?? 'script exhausted';
  };
});
afterAll(async () => mock?.close());
beforeEach(() => {
  script = [];
  seen = [];
});

const grader = () =>
  createJudgeGrader({ provider: createProvider({ kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'grader', apiKey: 'mock-key', maxRetries: 0 }) });
const row: ClusteredRowIn = {
  id: 'q1', question: 'Capital of France?', gold_answer: 'Paris', gold_answer_aliases: ['Paris, France'], model: 'm', n_samples: 3,
  results: ['', '', ''], answer_extracted: ['Paris', 'Paris', 'Lyon'], confidence_verbalized: [null, null, null],
  n_clusters: 2, cluster_labels: ['Paris', 'Lyon'], cluster_assignments: [0, 0, 1], cluster_sizes: [2, 1], modal_cluster: 0, modal_cluster_label: 'Paris',
};

test('judge grader: the modal label, gold and aliases go in; a strict verdict comes out', async () => {
  script = ['CORRECT'];
  const r = await gradeRow(row, grader());
  expect(r.row).toEqual({ id: 'q1', model: 'm', question: 'Capital of France?', gold_answer: 'Paris', modal_cluster_label: 'Paris', grade: 'CORRECT', Y: 1 });
  expect(seen[0].temperature).toBe(0);
  expect(seen[0].user).toContain('"reference":"Paris"');
  expect(seen[0].user).toContain('"also_accepted":["Paris, France"]');
  expect(seen[0].user).toContain('"answer":"Paris"');
  expect(r.usage!.inputTokens).toBeGreaterThan(0);
});

test('NOT_ATTEMPTED gives Y 0', async () => {
  script = ['NOT_ATTEMPTED'];
  expect((await gradeRow(row, grader())).row).toMatchObject({ grade: 'NOT_ATTEMPTED', Y: 0 });
});

test('a chatty verdict is retried with a reminder; a second one fails the row (Y null) with the reason', async () => {
  script = ['I think this is correct.', 'CORRECT'];
  expect((await gradeRow(row, grader())).row).toMatchObject({ grade: 'CORRECT', Y: 1 });
  expect(seen[1].user).toMatch(/exactly one word/);
  script = ['Well, it depends.', 'Hard to say.'];
  const failed = await gradeRow(row, grader());
  expect(failed.row).toMatchObject({ grade: null, Y: null, error: expect.stringMatching(/not one of CORRECT.*"Hard to say\.".*after 2 attempts/) });
});

test('a row whose clustering failed is not graded and keeps its reason', async () => {
  const r = await gradeRow({ ...row, n_clusters: 0, cluster_labels: [], cluster_sizes: [], cluster_assignments: [], modal_cluster_label: '', error: 'indices missing: 3' }, grader());
  expect(r.row).toMatchObject({ grade: null, Y: null, error: 'not graded: clustering failed (indices missing: 3)' });
  expect(seen).toHaveLength(0);
});

test('alias grader through the same row path records its rule', async () => {
  const r = await gradeRow({ ...row, modal_cluster_label: 'Paris, France' }, createAliasGrader());
  expect(r.row).toMatchObject({ grade: 'CORRECT', Y: 1, grade_rule: 'exact' });
});

describe('verdict parsing is strict', () => {
  test.each([
    ['CORRECT', 'CORRECT'],
    [' **incorrect**. ', 'INCORRECT'],
    ['NOT ATTEMPTED', 'NOT_ATTEMPTED'],
    ['"Not_Attempted"', 'NOT_ATTEMPTED'],
    ['Verdict: CORRECT', 'CORRECT'],
    ['CORRECT, because the answer matches', null],
    ['The answer is correct', null],
    ['INCORRECTLY', null],
    ['', null],
  ])('%j → %s', (reply, verdict) => {
    expect(parseVerdict(reply)).toBe(verdict);
  });
});
