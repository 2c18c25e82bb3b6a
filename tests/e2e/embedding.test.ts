/**
 * The embedding path in Chromium: the built app's own worker loads the repo's tiny ONNX model
 * from /models/ through Transformers.js (remote models off) and runs it on ONNX Runtime WASM
 * served by the app itself. The page must request nothing off loopback.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { expectLoadedOnWasm, expectServedByAppAndClose, openModelWorkerPage } from './model-worker-page';

interface Hook {
  progress: { status: string; file?: string }[];
  embed(texts: string[]): Promise<number[][]>;
  cluster(answers: string[], threshold: number): Promise<{ ok: boolean; value?: { label: string; members: number[] }[] }>;
}
declare const __semece: Hook;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

test('tiny model in the browser worker: loads from the app, embeds, clusters, stays on loopback', async () => {
  const opened = await openModelWorkerPage(browser, 'embedding-page');
  const { page } = opened;
  await expectLoadedOnWasm(page, 'tiny-embedder');
  const progress = await page.evaluate(() => __semece.progress);
  expect(progress.some((p) => p.status === 'ready')).toBe(true);

  const [paris, cityOfParis, lyon, two, digit2] = await page.evaluate(() => __semece.embed(['Paris', 'the city of Paris', 'Lyon', 'two', '2']));
  expect(paris).toHaveLength(32);
  expect(cosine(paris, paris)).toBeCloseTo(1, 5);
  expect(cosine(paris, cityOfParis)).toBeGreaterThan(0.9);
  expect(cosine(two, digit2)).toBeGreaterThan(0.9);
  expect(cosine(paris, lyon)).toBeLessThan(0.6);

  const clustered = await page.evaluate(() => __semece.cluster(['Paris', 'Lyon', 'the city of Paris', 'paris.', 'two', '2'], 0.85));
  expect(clustered).toMatchObject({
    ok: true,
    value: [
      { label: 'Paris', members: [0, 2, 3] },
      { label: 'Lyon', members: [1] },
      { label: 'two', members: [4, 5] },
    ],
  });
  // The answers' cosines kept for the graph signals: one group per distinct normalised answer
  // ('Paris' and 'paris.' are one), a symmetric g×g matrix with 1 on its diagonal, clipped to [0, 1].
  const similarity = (clustered as { similarity?: { source: string; groups: number[]; matrix: number[] } }).similarity!;
  expect(similarity.source).toBe('embedding-cosine');
  expect(similarity.groups).toEqual([0, 1, 2, 0, 3, 4]);
  const g = 5;
  expect(similarity.matrix).toHaveLength(g * g);
  for (let i = 0; i < g; i++) {
    expect(similarity.matrix[i * g + i]).toBe(1);
    for (let j = 0; j < g; j++) {
      expect(similarity.matrix[i * g + j]).toBe(similarity.matrix[j * g + i]);
      expect(similarity.matrix[i * g + j]).toBeGreaterThanOrEqual(0);
    }
  }
  // The same model's cosines as measured above, to the matrix's 4 decimals: Paris ~ the city of Paris, two ~ 2.
  expect(similarity.matrix[0 * g + 2]).toBeCloseTo(Math.max(0, cosine(paris, cityOfParis)), 3);
  expect(similarity.matrix[3 * g + 4]).toBeCloseTo(Math.max(0, cosine(two, digit2)), 3);

  await expectServedByAppAndClose(opened, 'tiny-embedder');
});
