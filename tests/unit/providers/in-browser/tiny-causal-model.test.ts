/**
 * The committed tiny causal model is exactly what its script writes (deterministic, no drift),
 * and the table's exact Sem1 expectation is right on cases worked by hand.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { SHIPPED_GENERATION_MODELS, TINY_CAUSAL_MODEL } from '../../../../src/providers/in-browser/models';
import { modalFrequencyMoments, probabilities, TINY_CAUSAL_MODEL_ID } from '../../../../scripts/tiny-causal-lm-table';

const FILES = ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx', 'onnx/model_quantized.onnx'];

test('scripts/make-tiny-causal-model.ts reproduces the shipped tiny-causal-lm byte for byte', async () => {
  expect(TINY_CAUSAL_MODEL_ID).toBe(TINY_CAUSAL_MODEL);
  expect(SHIPPED_GENERATION_MODELS).toContain(TINY_CAUSAL_MODEL);
  const out = await mkdtemp(path.join(tmpdir(), 'tiny-causal-'));
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/make-tiny-causal-model.ts'], { env: { ...process.env, TINY_CAUSAL_OUT: out } });
    for (const file of FILES) {
      const made = await readFile(path.join(out, file));
      const committed = await readFile(path.resolve('public/models', TINY_CAUSAL_MODEL, file));
      expect(made.equals(committed), file).toBe(true);
    }
    const config = JSON.parse(await readFile(path.join(out, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ model_type: 'llama', architectures: ['LlamaForCausalLM'], num_hidden_layers: 1 });
    expect(JSON.parse(await readFile(path.join(out, 'tokenizer_config.json'), 'utf8')).chat_template).toContain('<|im_start|>assistant');
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('the expected Sem1 of n samples: worked cases', () => {
  // One sure class: Sem1 is 1 with no spread.
  expect(modalFrequencyMoments([1], 7)).toEqual({ mean: 1, variance: 0 });
  // Two even classes, n = 2: the two samples agree (Sem1 1) half the time, else Sem1 1/2.
  const two = modalFrequencyMoments([0.5, 0.5], 2);
  expect(two.mean).toBeCloseTo(0.75, 12);
  expect(two.variance).toBeCloseTo(0.0625, 12);
  // n = 3 of (p, 1 − p): Sem1 is 1 when all agree, else 2/3.
  const p = 0.7;
  const agree = p ** 3 + (1 - p) ** 3;
  expect(modalFrequencyMoments([p, 1 - p], 3).mean).toBeCloseTo(agree + (2 / 3) * (1 - agree), 12);
  expect(probabilities([{ token: 'a', steps: 0 }, { token: 'b', steps: -4 }])[0]).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
});
