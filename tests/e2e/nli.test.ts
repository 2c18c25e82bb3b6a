/**
 * Entailment clustering in Chromium: the built app's own NLI worker loads the repo's tiny
 * classifier from /models/ through Transformers.js (remote models off), runs text pairs on ONNX
 * Runtime WASM served by the app itself, and the entailment clusterer groups answers as the
 * model's designed decisions say. The page must request nothing off loopback.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { expectLoadedOnWasm, expectServedByAppAndClose, openModelWorkerPage } from './model-worker-page';

type Classes = { label: string; members: number[] }[];
interface Hook {
  progress: { status: string; file?: string }[];
  loads: { status: string; role?: string; device?: string }[];
  decide(pairs: { premise: string; hypothesis: string }[]): Promise<string[]>;
  cluster(question: string, answers: string[]): Promise<{ result: { ok: boolean; value?: Classes; error?: { message: string } }; decided: number }>;
}
declare const __semece: Hook;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('tiny NLI model in the browser worker: loads from the app, decides pairs, clusters by entailment, stays on loopback', async () => {
  const opened = await openModelWorkerPage(browser, 'nli-page');
  const { page } = opened;
  await expectLoadedOnWasm(page, 'tiny-nli');
  expect((await page.evaluate(() => __semece.progress)).some((p) => p.status === 'ready')).toBe(true);
  expect((await page.evaluate(() => __semece.loads)).at(-1)).toMatchObject({ status: 'ready', role: 'nli', device: 'wasm' });

  const q = 'What is the capital of France?';
  const labels = await page.evaluate((q) => __semece.decide([
    { premise: `${q} Paris`, hypothesis: `${q} Paris, France` },
    { premise: `${q} Paris`, hypothesis: `${q} Lyon` },
    { premise: `${q} Paris`, hypothesis: `${q} Paris in 1900` },
  ]), q);
  expect(labels).toEqual(['entailment', 'contradiction', 'neutral']);

  const answers = ['Paris', 'Lyon', 'Paris, France', 'paris.', 'Lyon', 'Paris in 1900', 'Marseille'];
  const first = await page.evaluate(([q, a]) => __semece.cluster(q as string, a as string[]), [q, answers] as const);
  expect(first.result).toEqual({
    ok: true,
    value: [
      { label: 'Paris', members: [0, 2, 3] },
      { label: 'Lyon', members: [1, 4] },
      { label: 'Paris in 1900', members: [5] },
      { label: 'Marseille', members: [6] },
    ],
  });
  expect(first.decided).toBeGreaterThan(0);
  // The same answers again: every decision comes from the cache, the worker is asked nothing.
  const second = await page.evaluate(([q, a]) => __semece.cluster(q as string, a as string[]), [q, answers] as const);
  expect(second).toEqual(first);

  await expectServedByAppAndClose(opened, 'tiny-nli');
});
