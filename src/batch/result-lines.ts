/**
 * Reading one line of a service's result file into a ResultOutcome, or saying exactly what is wrong
 * with it. Each format's module reads its own line shape (`batch.resultLine`, with the shapes in its
 * comments); here a line is only checked to be a JSON object and handed to its format.
 */
import { isRecord } from '../providers/wire.ts';
import { badLine, type ParsedLine } from '../providers/batch-service.ts';
import { wireBatch } from '../providers/wire-formats.ts';
import type { BatchApi } from './service.ts';
import { type LineSource, linesOf } from './jsonl.ts';

/** One result line (its text) → an outcome, or the problem with it. Blank lines are the caller's to skip. */
export function parseResultLine(api: BatchApi, text: string): ParsedLine {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { problem: { kind: 'bad-json', message: `not valid JSON (${(e as Error).message.slice(0, 80)})` } };
  }
  if (!isRecord(v)) return badLine('a result line must be a JSON object');
  return wireBatch(api).resultLine(v);
}

/**
 * The result lines of `source`, each read (parseResultLine) with its 1-based line number in the
 * file; blank lines are skipped (still counted in the numbering), and reading stops when `signal`
 * aborts. The sample, p(True) and judge readers share it.
 */
export async function* parsedResultLines(
  source: LineSource,
  api: BatchApi,
  opts: { alreadyLines?: boolean; signal?: AbortSignal } = {},
): AsyncGenerator<{ line: number; parsed: ParsedLine }> {
  let line = 0;
  for await (const text of linesOf(source, { alreadyLines: opts.alreadyLines })) {
    line++;
    if (opts.signal?.aborted) return;
    if (text.trim() === '') continue;
    yield { line, parsed: parseResultLine(api, text) };
  }
}
