/**
 * A row stage from a command's --in file to its --out file, as `semece cluster` and `grade` run
 * it over 40,000 questions × 50 replies without holding the file or every row: first every row is
 * checked (so a bad line stops the command before anything is sent or written), then the rows are
 * read again and go through the stage a window at a time, each window written as it finishes.
 */
import { writeLinesAtomic } from './command-io.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { BadRow, badRowLine } from './jsonl-rows.ts';
import { stoppedLine, type StopOnFatal } from './provider-stop.ts';
import { runRowStageStreamed, StageStopped, type StageTotals } from './row-stage.ts';
import type { Usage } from '../src/model/provider.ts';

/** Ids named in a warning before "…". */
const SHOWN_IDS = 10;

/**
 * How many rows `rows()` yields with an id not seen before, every one checked; undefined once the
 * first bad one was reported (exit 2). Rows that repeat an earlier row's id are counted and named
 * on stderr: the first row per id is the one used, as the spec joins rows and `score` reads them.
 */
export async function countRows(command: string, rows: () => AsyncIterable<{ id: string }>, err: (s: string) => void): Promise<number | undefined> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  let later = 0;
  try {
    for await (const row of rows()) {
      if (!seen.has(row.id)) seen.add(row.id);
      else {
        later++;
        repeated.add(row.id);
      }
    }
  } catch (e) {
    if (!(e instanceof BadRow)) throw e;
    err(badRowLine(command, e));
    return undefined;
  }
  if (later > 0) {
    const ids = [...repeated].slice(0, SHOWN_IDS).map((id) => JSON.stringify(id)).join(', ');
    err(`semece ${command}: ${later} duplicate row(s) ignored (first row per id kept, as score does), for ${repeated.size} id(s): ${ids}${repeated.size > SHOWN_IDS ? ', …' : ''}`);
  }
  return seen.size;
}

/** The rows whose id no earlier row had (the first row per id wins). */
async function* firstRowPerId<R extends { id: string }>(rows: AsyncIterable<R>): AsyncGenerator<R> {
  const seen = new Set<string>();
  for await (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    yield row;
  }
}

/**
 * Every row (the first per id) through `stage`, its result handed to `line` and written to `outFile` in input order;
 * the tokens and calls summed. When the judge stopped the command, nothing is written and the
 * stop is reported with where its cache keeps what was done (exit 1); a row that turned bad since
 * countRows read it (the file changed) is reported as bad input (exit 2).
 */
export async function writeStageRows<R extends { id: string }, T extends { usage?: Usage; calls?: number }>(
  command: string,
  rows: AsyncIterable<R>,
  outFile: string,
  options: { concurrency: number; judge?: StopOnFatal; total: number; onDone?: (done: number, total: number) => void; kept: { what: string; path: string } },
  stage: (row: R, signal: AbortSignal | undefined) => Promise<T>,
  line: (result: T) => string,
  err: (s: string) => void,
): Promise<{ ok: true; totals: StageTotals } | { ok: false; exit: ExitCode }> {
  const totals: StageTotals = { usage: { inputTokens: 0, outputTokens: 0 }, calls: 0 };
  const results = runRowStageStreamed(firstRowPerId(rows), options, stage, totals);
  async function* lines(): AsyncGenerator<string> {
    for await (const r of results) yield line(r);
  }
  try {
    await writeLinesAtomic(outFile, lines());
  } catch (e) {
    if (e instanceof StageStopped) {
      err(stoppedLine(command, e.message, options.kept));
      return { ok: false, exit: EXIT.failed };
    }
    if (e instanceof BadRow) {
      err(badRowLine(command, e));
      return { ok: false, exit: EXIT.badInput };
    }
    throw e;
  }
  return { ok: true, totals };
}
