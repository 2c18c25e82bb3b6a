/**
 * The in-browser provider's model in Chromium: the built app's own generation worker loads the
 * repo's tiny causal model from /models/ through Transformers.js (remote models off), generates a
 * question's replies as one batch on ONNX Runtime WASM served by the app itself, in the reply
 * format the app's parser reads, the same again for the same seed; a request cancelled as it is
 * sent ends with an AbortError and the worker goes on serving. The model's files and ONNX Runtime come
 * from the app, and the page requests nothing off loopback (model-worker-page.ts).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { expectLoadedOnWasm, expectServedByAppAndClose, openModelWorkerPage } from './model-worker-page';
import { DEFAULT_GENERATION_PROMPT, fillPrompt, generationMessages } from '../../src/pipeline/prompts';
import { TINY_TOPICS, answerText } from '../../scripts/tiny-causal-lm-table';

interface Reply { text: string; finishReason: string; tokens: number }
interface Hook {
  loads: { status: string; role?: string; device?: string }[];
  generate(request: unknown): Promise<{ replies: Reply[]; inputTokens: number; outputTokens: number }>;
  cancelled(request: unknown): Promise<{ thrown: string; after: number }>;
  notes(): string[];
}
declare const __semece: Hook;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('tiny causal model in the generation worker: loads from the app, generates a batch in the app’s format, cancels, stays on loopback', async () => {
  const opened = await openModelWorkerPage(browser, 'generation-page');
  const { page } = opened;
  await expectLoadedOnWasm(page, 'tiny-causal-lm');
  expect((await page.evaluate(() => __semece.loads)).at(-1)).toMatchObject({ status: 'ready', role: 'generation', device: 'wasm' });
  expect(await page.evaluate(() => __semece.notes())).toEqual([expect.stringMatching(/^generated in this browser on WASM/)]);

  const topic = TINY_TOPICS[1];
  const request = { messages: generationMessages(fillPrompt(DEFAULT_GENERATION_PROMPT, { question: topic.question })), n: 16, temperature: 1, maxTokens: 16, seed: 3 };
  const r = await page.evaluate((req) => __semece.generate(req), request);
  expect(r.replies).toHaveLength(16);
  for (const reply of r.replies) {
    expect(reply.finishReason).toBe('stop');
    const m = /^Answer: (.+)\nConfidence: (\d+)%$/.exec(reply.text);
    expect(m, reply.text).not.toBeNull();
    expect(topic.answers.map(answerText)).toContain(m![1]);
  }
  expect(r.outputTokens).toBe(16 * 7);
  // The same seed in the worker draws the same replies.
  expect((await page.evaluate((req) => __semece.generate(req), request)).replies.map((x) => x.text)).toEqual(r.replies.map((x) => x.text));

  expect(await page.evaluate((req) => __semece.cancelled(req), request)).toEqual({ thrown: 'AbortError', after: 16 });

  await expectServedByAppAndClose(opened, 'tiny-causal-lm');
});
