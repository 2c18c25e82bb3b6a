import { expect, test } from 'vitest';
import { runRowStage } from '../../../cli/row-stage';
import { StopOnFatal } from '../../../cli/provider-stop';
import { ProviderError } from '../../../src/providers/errors';
import type { ChatProvider } from '../../../src/model/provider';

test('every row goes through the stage, results in input order, usage and calls summed, progress counted', async () => {
  const seen: number[] = [];
  const delays = [30, 0, 10, 0, 20];
  const { results, usage, calls } = await runRowStage(delays, { concurrency: 2, onDone: (done, total) => seen.push(done * 10 + total) }, async (ms, signal) => {
    expect(signal).toBeUndefined();
    await new Promise((r) => setTimeout(r, ms));
    return { value: ms, usage: { inputTokens: ms, outputTokens: 1 }, calls: 2 };
  });
  expect(results.map((r) => r?.value)).toEqual(delays);
  expect(usage).toEqual({ inputTokens: 60, outputTokens: 5 });
  expect(calls).toBe(10);
  expect(seen).toEqual([15, 25, 35, 45, 55]);
});

test('after the judge hits an error that stops the command, rows not started come back undefined and nothing more is sent', async () => {
  let sent = 0;
  const inner = {
    config: { kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' },
    complete: async () => {
      sent++;
      throw new ProviderError({ kind: 'auth', message: 'bad key', status: 401 });
    },
  } as unknown as ChatProvider;
  const judge = new StopOnFatal(inner);
  const { results } = await runRowStage([1, 2, 3, 4], { concurrency: 1, judge }, async (row, signal) => {
    expect(signal).toBe(judge.signal);
    try {
      await judge.complete({ messages: [], settings: { temperature: 0, maxTokens: 1 }, n: 1 } as never);
    } catch {
      // The stage records the failure in its row; the loop reads the judge's state.
    }
    return { value: row, calls: 1 };
  });
  expect(sent).toBe(1);
  expect(results).toEqual([{ value: 1, calls: 1 }, undefined, undefined, undefined]);
  expect(judge.fatal?.kind).toBe('auth');
});
