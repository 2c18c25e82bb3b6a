/** The committed tiny embedder is exactly what its script writes (deterministic, no drift). */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { SHIPPED_EMBEDDING_MODELS, TINY_EMBEDDING_MODEL } from '../../../src/clustering/embedding-models';

const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx', 'onnx/model_quantized.onnx'];

test('scripts/make-tiny-embedding-model.ts reproduces the shipped tiny-embedder byte for byte', async () => {
  expect(SHIPPED_EMBEDDING_MODELS).toContain(TINY_EMBEDDING_MODEL);
  const out = await mkdtemp(path.join(tmpdir(), 'tiny-embedder-'));
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/make-tiny-embedding-model.ts'], { env: { ...process.env, TINY_EMBEDDER_OUT: out } });
    for (const file of FILES) {
      const made = await readFile(path.join(out, file));
      const committed = await readFile(path.resolve('public/models', TINY_EMBEDDING_MODEL, file));
      expect(made.equals(committed), file).toBe(true);
    }
    expect(JSON.parse(await readFile(path.join(out, 'config.json'), 'utf8'))).toMatchObject({ architectures: ['BertModel'], hidden_size: 32 });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
