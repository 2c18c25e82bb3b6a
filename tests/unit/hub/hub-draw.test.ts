/**
 * `--limit N` over a hub split with many Parquet row groups decodes only the row groups holding
 * the drawn rows (hub/hub-draw.ts), told by the Parquet reader's own chunk callback: in the CLI's
 * reader (cli/dataset-source.ts) and in the shared module the app's dataset worker loads hub
 * splits with (hub/hub-dataset.ts). When every row is a question, the draw is exactly the one a
 * full read gives (drawSubset over all the questions), plain and by category; with rows that are
 * not questions, it follows the documented rule: the seeded order over the rows, passing over
 * rows that are not questions or repeat a drawn id.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { readDatasetSource } from '../../../cli/dataset-source';
import { defaultRng } from '../../../src/core/rng';
import { drawSubset } from '../../../src/formats/datasets/subset';
import { hubQuestions, loadHubQuestions, loadHubTable } from '../../../src/hub/hub-dataset';
import { NO_HUB_CACHE } from '../../../src/model/hub-file-cache';
import { PARQUET } from '../../mock/hub-datasets';
import { startMockHub, type MockHub } from '../../mock/hub-server';

const ROWS = 2_000;
const GROUP = 50;
const GROUPS = ROWS / GROUP;
const FILE = 'default/train/0000.parquet';
const TOPICS = ['Science', 'Art', 'Geography', 'Music'];

type Columns = Parameters<typeof parquetWriteBuffer>[0]['columnData'];
const file = (columnData: Columns) => new Uint8Array(parquetWriteBuffer({ columnData, rowGroupSize: GROUP }));
const ids = Array.from({ length: ROWS }, (_, i) => `r${i}`);
const questions = ids.map((_, i) => `Question ${i}?`);
const answers = ids.map((_, i) => `answer ${i}`);

/** Every 10th row has an empty question, and row 7 repeats row 3's id. */
const gappy = file([
  { name: 'id', data: ids.map((id, i) => (i === 7 ? 'r3' : id)), type: 'STRING' },
  { name: 'question', data: questions.map((q, i) => (i % 10 === 5 ? '' : q)), type: 'STRING' },
  { name: 'answer', data: answers, type: 'STRING' },
]);

let hub: MockHub;
let dir: string;
beforeAll(async () => {
  hub = await startMockHub({
    'someone/many': { files: { [PARQUET]: { [FILE]: file([
      { name: 'id', data: ids, type: 'STRING' },
      { name: 'question', data: questions, type: 'STRING' },
      { name: 'answer', data: answers, type: 'STRING' },
      { name: 'notes', data: ids.map((id) => `a column nobody maps, ${id}`), type: 'STRING' },
    ]) } } },
    'someone/topics': { files: { [PARQUET]: { [FILE]: file([
      { name: 'id', data: ids, type: 'STRING' },
      { name: 'question', data: questions, type: 'STRING' },
      { name: 'answer', data: answers, type: 'STRING' },
      // Uneven categories: 40 %, 30 %, 20 %, 10 %.
      { name: 'topic', data: ids.map((_, i) => TOPICS[i % 10 < 4 ? 0 : i % 10 < 7 ? 1 : i % 10 < 9 ? 2 : 3]), type: 'STRING' },
    ]) } } },
    'someone/gappy': { files: { [PARQUET]: { [FILE]: gappy } } },
  });
  dir = await mkdtemp(join(tmpdir(), 'semece-hub-draw-'));
});
afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

/** Row groups whose chunks of `column` the reader decoded. */
function recorder() {
  const seen: { group: number; column: string }[] = [];
  return {
    onDecoded: (f: string, group: number, column: string) => {
      expect(f).toBe(FILE);
      seen.push({ group, column });
    },
    groups: (column: string) => new Set(seen.filter((s) => s.column === column).map((s) => s.group)),
    columns: () => new Set(seen.map((s) => s.column)),
  };
}

/** What a full read of the split and today's drawSubset give (the draw every version has made). */
async function fullDraw(repo: string, n: number, seed: number, mapping?: Record<string, 'id' | 'question' | 'answer' | 'category'>) {
  const loaded = await loadHubTable({ repo, config: 'default', split: 'train' }, { hubUrl: hub.url, cache: NO_HUB_CACHE });
  if (!loaded.ok) throw new Error(loaded.error.message);
  expect(loaded.value.table.rows).toHaveLength(ROWS);
  const read = hubQuestions(loaded.value, mapping);
  if (!read.ok) throw new Error(read.error.message);
  return drawSubset(read.value.dataset, { n, seed, stratify: true });
}

describe('semece sample --dataset hub:… --limit', () => {
  test(`--limit 3 over ${GROUPS} row groups decodes at most 3 of them, only the mapped columns, and draws what a full read draws`, async () => {
    const env = { HF_ENDPOINT: hub.url, SEMECE_HUB_CACHE: join(dir, 'cache') };
    for (const seed of [0, 7, 123]) {
      const seen = recorder();
      const read = await readDatasetSource('hub:someone/many', { env, log: () => {}, limit: 3, seed, onDecoded: seen.onDecoded });
      if (!read.ok) throw new Error(read.error.message);
      const groups = seen.groups('question');
      expect(groups.size).toBeGreaterThan(0);
      expect(groups.size).toBeLessThanOrEqual(3);
      expect(seen.columns()).toEqual(new Set(['id', 'question', 'answer']));
      const full = await fullDraw('someone/many', 3, seed);
      expect(read.value.dataset.questions).toEqual(full.questions);
      expect(read.value.dataset.subset).toEqual(full.subset);
      expect(read.value.dataset.subset).toMatchObject({ of: ROWS, seed });
      expect(read.value.layout).toBe('generic');
      // The drawn rows lie in the groups that were read.
      for (const q of read.value.dataset.questions) expect(groups.has(Math.floor(Number(q.id.slice(1)) / GROUP))).toBe(true);
    }
  });

  test('without --limit every row group is decoded (the same callback sees them all)', async () => {
    const seen = recorder();
    const read = await loadHubQuestions({ repo: 'someone/many', config: 'default', split: 'train' }, { hubUrl: hub.url, cache: NO_HUB_CACHE }, { onDecoded: seen.onDecoded });
    expect(read.ok && read.value.dataset.questions).toHaveLength(ROWS);
    // A full read goes through parquetTable, which reports nothing: nothing was drawn.
    expect(seen.groups('question').size).toBe(0);
  });
});

describe("the dataset worker's shared module (loadHubQuestions)", () => {
  test('stratified: the category column is read in every row group, the question columns in a few; the draw is a full read\'s', async () => {
    const mapping = { id: 'id', question: 'question', answer: 'answer', topic: 'category' } as const;
    const seen = recorder();
    const read = await loadHubQuestions({ repo: 'someone/topics', config: 'default', split: 'train' }, { hubUrl: hub.url, cache: NO_HUB_CACHE }, { mapping, draw: { n: 10, seed: 4, stratify: true }, onDecoded: seen.onDecoded });
    if (!read.ok) throw new Error(read.error.message);
    expect(seen.groups('topic').size).toBe(GROUPS);
    expect(seen.groups('question').size).toBeLessThanOrEqual(10);
    const full = await fullDraw('someone/topics', 10, 4, mapping);
    expect(read.value.dataset.questions).toEqual(full.questions);
    expect(read.value.dataset.subset).toEqual({ ...full.subset, stratifiedBy: 'category' });
    // Quotas 4/3/2/1 of 10 by the categories' sizes.
    expect(read.value.dataset.questions.map((q) => q.category).sort()).toEqual(['Art', 'Art', 'Art', 'Geography', 'Geography', 'Music', 'Science', 'Science', 'Science', 'Science']);
  });

  test('rows that are not questions are passed over in the seeded order over the rows, and a repeated id keeps the row drawn first', async () => {
    const n = 40;
    const seed = 11;
    const seen = recorder();
    const read = await loadHubQuestions({ repo: 'someone/gappy', config: 'default', split: 'train' }, { hubUrl: hub.url, cache: NO_HUB_CACHE }, { draw: { n, seed, stratify: true }, onDecoded: seen.onDecoded });
    if (!read.ok) throw new Error(read.error.message);
    // The rule, by hand: walk permutation(ROWS), skip empty questions and ids already taken.
    const taken: number[] = [];
    const idOf = (i: number) => (i === 7 ? 'r3' : `r${i}`);
    const takenIds = new Set<string>();
    for (const i of defaultRng(seed).permutation(ROWS)) {
      if (taken.length === n) break;
      if (i % 10 === 5 || takenIds.has(idOf(i))) continue;
      taken.push(i);
      takenIds.add(idOf(i));
    }
    taken.sort((a, b) => a - b);
    expect(read.value.dataset.questions.map((q) => q.question)).toEqual(taken.map((i) => `Question ${i}?`));
    expect(read.value.dataset.subset).toMatchObject({ of: ROWS, seed });
    expect(read.value.skipped.length).toBeGreaterThan(0);
    expect(read.value.skipped.every((s) => /^default\/train\/0000\.parquet row \d+$/.test(s.where))).toBe(true);
    expect(seen.groups('question').size).toBeLessThan(GROUPS);
  });

  test('a limit of at least the rows reads every row, as before', async () => {
    const read = await loadHubQuestions({ repo: 'someone/many', config: 'default', split: 'train' }, { hubUrl: hub.url, cache: NO_HUB_CACHE }, { draw: { n: ROWS, seed: 1, stratify: true } });
    expect(read.ok && read.value.dataset.questions).toHaveLength(ROWS);
    expect(read.ok && read.value.dataset.subset).toBeUndefined();
  });
});
