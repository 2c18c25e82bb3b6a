/**
 * Setup shared by the browser tests that run the wizard against the loopback mock: the browser
 * and mock lifecycle, the small capitals dataset, the demo questions as mock questions, and the
 * pause that lets every delivered sample be stored before a tab reloads or closes.
 */
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { storedSamplesByQuestion } from './run-helpers';
import { MockProviderServer, type MockConfig, type MockQuestion } from '../mock/provider-server';
import type { DEMO_QUESTIONS } from '../../src/demo/questions';

/** Chromium first, then the mock, as every such test needs both. */
export async function launchWithMock(config: MockConfig): Promise<{ browser: Browser; mock: MockProviderServer }> {
  const browser = await launchChromium();
  const mock = await MockProviderServer.start(config);
  return { browser, mock };
}

/** Either may be missing when launching failed half-way. */
export async function closeWithMock(browser: Browser | undefined, mock: MockProviderServer | undefined): Promise<void> {
  await mock?.close();
  await browser?.close();
}

/** A capital question: country, the gold city, and the mock's answer weights. */
export type Capital = [country: string, city: string, answers: Record<string, number>];

const capitalQuestion = (country: string) => `What is the capital of ${country}?`;

/** The dataset file the wizard uploads: ids c1, c2, … in order. */
export const capitalsCsv = (capitals: Capital[]): string =>
  ['id,question,answer', ...capitals.map(([country, city], i) => `c${i + 1},${capitalQuestion(country)},${city}`)].join('\n');

export const capitalsMockQuestions = (capitals: Capital[]): MockQuestion[] =>
  capitals.map(([country, , answers], i) => ({ match: capitalQuestion(country), id: `c${i + 1}`, answers }));

/** The demo questions answered by the mock with their plausible answers' weights. */
export const demoMockQuestions = (questions: typeof DEMO_QUESTIONS): MockQuestion[] =>
  questions.map((q) => ({ match: q.question, id: q.id, answers: Object.fromEntries(q.plausible.map((p) => [p.label, p.weight])) }));

/** Samples the mock has served for demo questions (the connection test's question is not one). */
export const servedDemoSamples = (mock: MockProviderServer): number =>
  Object.entries(mock.stats().served).reduce((s, [id, n]) => (id.startsWith('demo-') ? s + n : s), 0);

export const storedSamplesTotal = async (page: Page): Promise<number> =>
  Object.values(await storedSamplesByQuestion(page)).reduce((a, b) => a + b, 0);

/**
 * Holds every new request at the mock, then waits until all that was delivered is stored: a
 * reload or closed tab now loses only requests that were never answered, so a resumed run must
 * ask for exactly the rest.
 */
export async function holdUntilSettled(mock: MockProviderServer, page: Page, interval: number): Promise<void> {
  mock.configure({ latencyMs: 600_000 });
  let last = -1;
  await expect
    .poll(
      async () => {
        // Settled only once no request sent before the hold is still waiting out its old latency
        // (its reply could otherwise arrive after the check, be delivered and not yet stored).
        if (mock.stats().inFlightFromBefore > 0) return false;
        const served = servedDemoSamples(mock);
        const settled = served === last && served === (await storedSamplesTotal(page));
        last = served;
        return settled;
      },
      { timeout: 60_000, interval },
    )
    .toBe(true);
}
