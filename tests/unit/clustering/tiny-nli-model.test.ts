/** The committed tiny NLI model is exactly what its script writes (deterministic, no drift). */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { SHIPPED_NLI_MODELS, TINY_NLI_MODEL } from '../../../src/clustering/nli-models';

const FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx', 'onnx/model_quantized.onnx'];

test('scripts/make-tiny-nli-model.ts reproduces the shipped tiny-nli byte for byte', async () => {
  expect(SHIPPED_NLI_MODELS).toContain(TINY_NLI_MODEL);
  const out = await mkdtemp(path.join(tmpdir(), 'tiny-nli-'));
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/make-tiny-nli-model.ts'], { env: { ...process.env, TINY_NLI_OUT: out } });
    for (const file of FILES) {
      const made = await readFile(path.join(out, file));
      const committed = await readFile(path.resolve('public/models', TINY_NLI_MODEL, file));
      expect(made.equals(committed), file).toBe(true);
    }
    expect(JSON.parse(await readFile(path.join(out, 'config.json'), 'utf8'))).toMatchObject({
      architectures: ['BertForSequenceClassification'],
      id2label: { 0: 'contradiction', 1: 'neutral', 2: 'entailment' },
      label2id: { contradiction: 0, neutral: 1, entailment: 2 },
    });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
