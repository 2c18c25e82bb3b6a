/**
 * Hub Parquet files past the bounds (formats/datasets/parquet.ts), served by the loopback hub:
 * a few hundred bytes declaring 12 million rows are refused from the footer, before decoding,
 * by `semece sample` (exit 2, the file, its rows and the bound named) and by the app's dataset
 * worker alike; and the CLI decodes only the columns its mapping reads, so a huge column it
 * does not need does not stop it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readDatasetSource } from '../../../cli/dataset-source';
import { MAX_PARQUET_DECODED_BYTES } from '../../../src/formats/datasets/parquet';
import { NO_HUB_CACHE } from '../../../src/model/hub-file-cache';
import { datasetWorkerApi } from '../../../src/workers/dataset-api';
import { PARQUET, parquetDeclaringRows, parquetWithFooter } from '../../mock/hub-datasets';
import { startMockHub, type MockHub } from '../../mock/hub-server';
import { semece } from './run-cli';

const HUGE_MESSAGE = 'default/train/0000.parquet declares 12,000,000 rows; a dataset may have at most 1,000,000 rows (no report holds more questions). Choose a smaller split or file.';

/** Question, answer and a column whose footer says it holds more than may be decoded. */
const wide = parquetWithFooter(
  [
    { name: 'id', data: ['w1', 'w2'], type: 'STRING' },
    { name: 'question', data: ['Wide one?', 'Wide two?'], type: 'STRING' },
    { name: 'answer', data: ['one', 'two'], type: 'STRING' },
    { name: 'pixels', data: ['…', '…'], type: 'STRING' },
  ],
  (f) => (f.row_groups[0].columns[3].meta_data!.total_uncompressed_size = BigInt(MAX_PARQUET_DECODED_BYTES) * 2n),
);

let hub: MockHub;
let dir: string;
beforeAll(async () => {
  hub = await startMockHub({
    'someone/huge': { files: { [PARQUET]: { 'default/train/0000.parquet': parquetDeclaringRows(12_000_000n) } } },
    'someone/wide': { files: { [PARQUET]: { 'default/train/0000.parquet': wide } } },
  });
  dir = await mkdtemp(join(tmpdir(), 'semece-hub-bounds-'));
});
afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

const env = { HF_ENDPOINT: '', SEMECE_HUB_CACHE: '' };
beforeAll(() => {
  env.HF_ENDPOINT = hub.url;
  env.SEMECE_HUB_CACHE = join(dir, 'cache');
});

describe('a hub Parquet file declaring 12 million rows', () => {
  test('semece sample exits 2 with the file, its declared rows and the bound, within a 256 MB heap, and sends no request to the model', async () => {
    // The heap is capped: decoding the declared rows would end in a heap out-of-memory crash
    // (exit 134) here, as it did at 4.4 GB without a cap, instead of the refusal.
    const r = await semece(
      ['sample', '--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--dataset', 'hub:someone/huge', '--limit', '3', '--out', join(dir, 'huge.jsonl')],
      { ...env, OPENAI_API_KEY: 'sk-hub-bounds-0123456789', NODE_OPTIONS: '--max-old-space-size=256' },
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(HUGE_MESSAGE);
    expect(r.stderr).not.toMatch(/samples \d+\/\d+/);
  });

  test("the app's dataset worker refuses it with the same message", async () => {
    const api = datasetWorkerApi(async () => NO_HUB_CACHE);
    const loaded = await api.loadHub({ source: { repo: 'someone/huge', config: 'default', split: 'train' }, hubUrl: hub.url });
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error).toMatchObject({ kind: 'dataset', where: 'default/train/0000.parquet', message: HUGE_MESSAGE });
  });
});

describe('a hub Parquet file with a column too large to decode', () => {
  test('the CLI reads it: only the columns of the layout recognised in its first rows are decoded', async () => {
    const read = await readDatasetSource('hub:someone/wide', { env, log: () => {} });
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.layout).toBe('generic');
    expect(read.value.dataset.questions).toEqual([
      { id: 'w1', question: 'Wide one?', answer: 'one' },
      { id: 'w2', question: 'Wide two?', answer: 'two' },
    ]);
  });

  test("the app's panel, which shows and maps every column, refuses it with the size and the bound", async () => {
    const api = datasetWorkerApi(async () => NO_HUB_CACHE);
    const loaded = await api.loadHub({ source: { repo: 'someone/wide', config: 'default', split: 'train' }, hubUrl: hub.url });
    expect(!loaded.ok && loaded.error.message).toMatch(/^default\/train\/0000\.parquet holds 513 MB once uncompressed; at most 256 MB is decoded\./);
  });
});
