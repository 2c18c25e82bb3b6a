/**
 * The loop `semece cluster` and `semece grade` share: every row through the stage, `concurrency`
 * at a time, each result kept in input order with the tokens it used summed, and nothing more
 * sent once the judge hit an error that stops the command (provider-stop.ts); the rows not
 * reached then come back undefined, and the caller says why and where its cache is.
 * runRowStageStreamed runs it over a streamed file a window of rows at a time.
 */
import pLimit from 'p-limit';
import type { Usage } from '../src/model/provider.ts';
import type { StopOnFatal } from './provider-stop.ts';
import { inGroups } from './jsonl-rows.ts';

export interface RowStageResults<T> {
  /** One per row, in the rows' order; undefined for rows not reached after a fatal error. */
  results: (T | undefined)[];
  usage: { inputTokens: number; outputTokens: number };
  /** Model calls the stage reported (a judge may call more than once per row). */
  calls: number;
}

export async function runRowStage<R, T extends { usage?: Usage; calls?: number }>(
  rows: readonly R[],
  options: { concurrency: number; judge?: StopOnFatal; onDone?: (done: number, total: number) => void },
  stage: (row: R, signal: AbortSignal | undefined) => Promise<T>,
): Promise<RowStageResults<T>> {
  const limit = pLimit(options.concurrency);
  const usage = { inputTokens: 0, outputTokens: 0 };
  let calls = 0;
  let done = 0;
  const { judge } = options;
  const results = await Promise.all(
    rows.map((row) =>
      limit(async () => {
        if (judge?.fatal) return undefined;
        const r = await stage(row, judge?.signal);
        usage.inputTokens += r.usage?.inputTokens ?? 0;
        usage.outputTokens += r.usage?.outputTokens ?? 0;
        calls += r.calls ?? 0;
        options.onDone?.(++done, rows.length);
        return r;
      }),
    ),
  );
  return { results, usage, calls };
}

/** Rows taken from the input at once by runRowStageStreamed: a bounded memory, and the judge's concurrency kept busy. */
export const ROW_WINDOW = 2000;

/** Tokens and calls of a streamed stage, summed over its windows. */
export interface StageTotals {
  usage: { inputTokens: number; outputTokens: number };
  calls: number;
}

/** Thrown into the output's writer when the judge hit an error that stops the command: nothing is written. */
export class StageStopped extends Error {}

/**
 * runRowStage over rows streamed from a file, `window` rows at a time: yields each result in input
 * order as its window finishes, and throws StageStopped once the judge stopped (so the output file
 * being written is abandoned, as runRowStage's caller writes none). `totals` sums usage and calls.
 */
export async function* runRowStageStreamed<R, T extends { usage?: Usage; calls?: number }>(
  rows: AsyncIterable<R>,
  options: { concurrency: number; judge?: StopOnFatal; total: number; window?: number; onDone?: (done: number, total: number) => void },
  stage: (row: R, signal: AbortSignal | undefined) => Promise<T>,
  totals: StageTotals,
): AsyncGenerator<T> {
  let before = 0;
  for await (const window of inGroups(rows, options.window ?? ROW_WINDOW)) {
    const r = await runRowStage(window, { concurrency: options.concurrency, judge: options.judge, onDone: (done) => options.onDone?.(before + done, options.total) }, stage);
    totals.usage.inputTokens += r.usage.inputTokens;
    totals.usage.outputTokens += r.usage.outputTokens;
    totals.calls += r.calls;
    if (options.judge?.fatal) throw new StageStopped(options.judge.fatal.message);
    before += window.length;
    for (const result of r.results) yield result as T;
  }
}
