/**
 * In-browser generation figures, printed (not asserted), on the repo's tiny causal model
 * (tiny-causal-lm, a lookup table: the figures measure the generation loop, tokenizer and
 * ONNX Runtime overhead, not a language model's arithmetic):
 * - samples per second and generated tokens per second in Node (onnxruntime-node), for one
 *   question's n samples generated together as one batch, at several batch sizes;
 * - the same in Chromium (ONNX Runtime WASM, in the app's generation worker, through the
 *   test-only page).
 */
import path from 'node:path';
import { generateReplies, loadGenerator } from '../src/providers/in-browser/generate';
import { TINY_CAUSAL_MODEL } from '../src/providers/in-browser/models';
import { DEFAULT_GENERATION_PROMPT, fillPrompt, generationMessages } from '../src/pipeline/prompts';
import type { ChatMessage } from '../src/model/provider';
import { withTestPage } from './test-page';

const messages = generationMessages(fillPrompt(DEFAULT_GENERATION_PROMPT, { question: 'Which city is the capital of Australia?' }));

async function chromiumThroughput(n: number, rounds: number): Promise<string> {
  const r = await withTestPage('tests/e2e/generation-page/index.html', (page) =>
    page.evaluate(
      async ([m, size, times]) => {
        const hook = (globalThis as unknown as { __semece: { init(): Promise<unknown>; throughput(m: ChatMessage[], n: number, r: number): Promise<{ samplesPerSecond: number; tokensPerSecond: number; notes: string[] }> } }).__semece;
        await hook.init();
        return hook.throughput(m, size, times);
      },
      [messages, n, rounds] as const,
    ),
  );
  return `${r.samplesPerSecond.toFixed(0)} samples/s, ${r.tokensPerSecond.toFixed(0)} tokens/s${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`;
}

export default async function bench(): Promise<void> {
  const g = await loadGenerator({ model: TINY_CAUSAL_MODEL, localModelPath: path.resolve('public/models') + path.sep, allowRemoteModels: false });
  try {
    await generateReplies(g, { messages, n: 1, temperature: 1, maxTokens: 16, seed: 0 });
    for (const n of [1, 4, 16]) {
      const rounds = Math.max(4, Math.round(64 / n));
      let tokens = 0;
      const t0 = performance.now();
      for (let r = 0; r < rounds; r++) tokens += (await generateReplies(g, { messages, n, temperature: 1, maxTokens: 16, seed: r })).outputTokens;
      const s = (performance.now() - t0) / 1000;
      console.log(`generation (Node, onnxruntime-node, tiny-causal-lm, batches of ${n}, ${rounds} requests): ${((n * rounds) / s).toFixed(0)} samples/s, ${(tokens / s).toFixed(0)} tokens/s`);
    }
  } finally {
    await g.dispose();
  }
  try {
    console.log(`generation (Chromium, WASM, in the app's generation worker, batches of 16, 8 requests): ${await chromiumThroughput(16, 8)}`);
  } catch (e) {
    console.log(`generation (Chromium, WASM): not measured (${(e as Error).message.split('\n')[0]})`);
  }
}
