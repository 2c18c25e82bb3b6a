/**
 * Reading one line of a service's result file into a ResultOutcome, or saying exactly what is wrong
 * with it. Each format's module reads its own line shape (`batch.resultLine`, with the shapes in its
 * comments); here a line is only checked to be a JSON object and handed to its format.
 */
import { isRecord } from '../providers/wire.ts';
import { badLine, type ParsedLine } from '../providers/batch-service.ts';
import { wireBatch } from '../providers/wire-formats.ts';
import type { BatchApi } from './service.ts';

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
