import { expect, test } from 'vitest';
import { runRowStage, runRowStageStreamed, StageStopped } from '../../../cli/row-stage';
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

async function* fromArray<T>(xs: T[]): AsyncGenerator<T> {
  for (const x of xs) yield x;
}

test('streamed: rows go through a window at a time, results in input order across windows, progress and totals counted over the whole input', async () => {
  const rows = Array.from({ length: 7 }, (_, i) => i);
  const inFlight: number[] = [];
  let running = 0;
  const progress: string[] = [];
  const totals = { usage: { inputTokens: 0, outputTokens: 0 }, calls: 0 };
  const out: number[] = [];
  for await (const r of runRowStageStreamed(fromArray(rows), { concurrency: 2, total: 7, window: 3, onDone: (d, t) => progress.push(`${d}/${t}`) }, async (row) => {
    running++;
    inFlight.push(running);
    await new Promise((r) => setTimeout(r, (7 - row) % 3));
    running--;
    return { value: row * 10, usage: { inputTokens: row, outputTokens: 1 }, calls: 1 };
  }, totals)) {
    out.push(r.value);
  }
  expect(out).toEqual([0, 10, 20, 30, 40, 50, 60]);
  expect(Math.max(...inFlight)).toBe(2);
  expect(progress).toEqual(['1/7', '2/7', '3/7', '4/7', '5/7', '6/7', '7/7']);
  expect(totals).toEqual({ usage: { inputTokens: 21, outputTokens: 7 }, calls: 7 });
});

test('streamed: a window is not taken from the input before the previous one was yielded (bounded memory)', async () => {
  const taken: number[] = [];
  async function* counted(): AsyncGenerator<number> {
    for (let i = 0; i < 6; i++) {
      taken.push(i);
      yield i;
    }
  }
  const totals = { usage: { inputTokens: 0, outputTokens: 0 }, calls: 0 };
  const gen = runRowStageStreamed(counted(), { concurrency: 4, total: 6, window: 2 }, async (row) => ({ value: row, calls: 0 }), totals);
  const first = await gen.next();
  expect(first.value).toEqual({ value: 0, calls: 0 });
  // The first window's rows and the one the grouping looked at to close it; nothing further.
  expect(taken.length).toBeLessThanOrEqual(3);
  const rest: number[] = [];
  for await (const r of gen) rest.push(r.value);
  expect(rest).toEqual([1, 2, 3, 4, 5]);
});

test('streamed: once the judge stops, StageStopped is thrown after the rows already yielded and no later window is sent', async () => {
  let sent = 0;
  const inner = {
    config: { kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' },
    complete: async () => {
      sent++;
      if (sent === 3) throw new ProviderError({ kind: 'auth', message: 'bad key', status: 401 });
      return { choices: [], usage: { inputTokens: 0, outputTokens: 0 } };
    },
  } as unknown as ChatProvider;
  const judge = new StopOnFatal(inner);
  const totals = { usage: { inputTokens: 0, outputTokens: 0 }, calls: 0 };
  const yielded: number[] = [];
  const run = async () => {
    for await (const r of runRowStageStreamed(fromArray([1, 2, 3, 4, 5, 6]), { concurrency: 1, judge, total: 6, window: 2 }, async (row) => {
      try {
        await judge.complete({ messages: [], settings: { temperature: 0, maxTokens: 1 }, n: 1 } as never);
      } catch {
        // recorded by the judge
      }
      return { value: row, calls: 1 };
    }, totals)) yielded.push(r.value);
  };
  await expect(run()).rejects.toBeInstanceOf(StageStopped);
  expect(yielded).toEqual([1, 2]);
  expect(sent).toBe(3);
  expect(totals.calls).toBe(3);
});
