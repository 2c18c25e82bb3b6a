/**
 * Storing a result file's replies in the sample cache, line by line, under the keys interactive
 * sampling uses. Nothing on a bad line is guessed: the line is reported (file, line, what is wrong)
 * and its samples stay missing, so the next interactive run or batch asks for exactly those.
 * Writes go out in batches and are awaited, so memory stays bounded however long the file is.
 */
import { extractSample } from '../pipeline/extract.ts';
import type { SampleCache } from '../model/sample-cache.ts';
import type { Sample } from '../model/rows.ts';
import { type LineSource, linesOf } from './jsonl.ts';
import type { SampleRequestSet } from './request-set.ts';
import { parseResultLine } from './result-lines.ts';
import type { FailedRequest, LineProblem } from './outcomes.ts';

export interface IngestOptions {
  /** Name used in every message (the file name, or "OpenAI output file"). */
  file: string;
  cache: SampleCache;
  /** Samples per cache write (default 2000). */
  writeBatch?: number;
  /** Problems kept in full (default 200); all are counted. */
  maxProblems?: number;
  alreadyLines?: boolean;
  onProgress?: (p: { lines: number; stored: number }) => void;
  signal?: AbortSignal;
  /**
   * Names the question group of stored keys (IdbSampleCache.describe fills the byQuestion index);
   * the group key follows the runner's convention: sample 0's key + '#q'.
   */
  describe?: (sampleKeys: string[], questionKey: string) => void;
  /**
   * True when the cache holds no sample of this question group (IdbSampleCache: a count on the
   * byQuestion index). Lets the ingest skip the per-key existence check for such questions: one
   * index count instead of n lookups, which is most of the cost of a first ingest.
   */
  groupIsEmpty?: (questionKey: string) => Promise<boolean>;
}

export interface IngestReport {
  file: string;
  lines: number;
  /** Samples written to the cache. */
  stored: number;
  /** Samples the cache already held (kept as they were: the first stored reply wins). */
  alreadyCached: number;
  /** Requests that came back with fewer replies than asked: samples still missing. */
  shortfall: number;
  failed: FailedRequest[];
  problems: LineProblem[];
  problemCount: number;
  usage: { inputTokens: number; outputTokens: number };
}

export async function ingestSampleResults(set: SampleRequestSet, source: LineSource, opts: IngestOptions): Promise<IngestReport> {
  const report: IngestReport = {
    file: opts.file, lines: 0, stored: 0, alreadyCached: 0, shortfall: 0, failed: [], problems: [], problemCount: 0, usage: { inputTokens: 0, outputTokens: 0 },
  };
  const maxProblems = opts.maxProblems ?? 200;
  const problem = (p: LineProblem) => {
    report.problemCount++;
    if (report.problems.length < maxProblems) report.problems.push(p);
  };
  // Which indices of each question this file has already delivered: duplicates are caught without keeping every id.
  const served = new Map<string, Uint8Array>();
  const emptyAtStart = new Map<string, boolean>();
  let pending: { key: string; sample: Sample; fresh?: boolean }[] = [];
  const writeBatch = opts.writeBatch ?? 2000;
  // One write in flight while the next batch is parsed and hashed: overlap without unbounded buffering.
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    await inFlight;
    inFlight = write(batch);
    // Handled here so a failed write is not "unhandled" while the next batch is parsed; it is rethrown when awaited.
    inFlight.catch(() => undefined);
  };
  const write = async (batch: { key: string; sample: Sample; fresh?: boolean }[]) => {
    const unsure = batch.filter((e) => !e.fresh);
    const existing = unsure.length ? await opts.cache.get(unsure.map((e) => e.key)) : [];
    const present = new Set(unsure.filter((_, i) => existing[i] !== undefined).map((e) => e.key));
    const fresh = batch.filter((e) => !present.has(e.key)).map(({ key, sample }) => ({ key, sample }));
    report.alreadyCached += batch.length - fresh.length;
    if (fresh.length > 0) await opts.cache.put(fresh);
    report.stored += fresh.length;
    opts.onProgress?.({ lines: report.lines, stored: report.stored });
  };

  let lineNo = 0;
  for await (const text of linesOf(source, { alreadyLines: opts.alreadyLines })) {
    lineNo++;
    if (opts.signal?.aborted) break;
    if (text.trim() === '') continue;
    report.lines++;
    const parsed = parseResultLine(set.api, text);
    if ('problem' in parsed) {
      problem({ file: opts.file, line: lineNo, ...parsed.problem });
      const at = parsed.problem.customId ? set.locate(parsed.problem.customId) : undefined;
      if (at?.ok) {
        const indices = Array.from({ length: at.count }, (_, j) => at.first + j);
        report.failed.push({ customId: parsed.problem.customId!, questionId: at.question.id, indices, code: parsed.problem.kind, message: parsed.problem.message, expired: false });
      }
      continue;
    }
    const { outcome } = parsed;
    const at = set.locate(outcome.customId);
    if (!at.ok) {
      problem({ file: opts.file, line: lineNo, kind: at.kind, message: at.message, customId: outcome.customId });
      continue;
    }
    let mask = served.get(at.question.id);
    if (!mask) served.set(at.question.id, (mask = new Uint8Array(set.spec.n)));
    if (mask.subarray(at.first, at.first + at.count).some((x) => x === 1)) {
      problem({ file: opts.file, line: lineNo, kind: 'duplicate-id', customId: outcome.customId, message: `custom_id ${outcome.customId} appears again (its samples came on an earlier line, which is kept)` });
      continue;
    }
    const indices = Array.from({ length: at.count }, (_, j) => at.first + j);
    if (!outcome.ok) {
      mask.fill(1, at.first, at.first + at.count);
      report.failed.push({ customId: outcome.customId, questionId: at.question.id, indices, code: outcome.error.code, message: outcome.error.message, expired: outcome.expired });
      if (!outcome.expired) problem({ file: opts.file, line: lineNo, kind: 'error-line', customId: outcome.customId, message: `custom_id ${outcome.customId} failed: ${outcome.error.code}: ${outcome.error.message}` });
      continue;
    }
    mask.fill(1, at.first, at.first + at.count);
    report.usage.inputTokens += outcome.usage.inputTokens;
    report.usage.outputTokens += outcome.usage.outputTokens;
    const replies = outcome.replies.slice(0, at.count);
    report.shortfall += at.count - replies.length;
    const keys = await set.keysOf(at.question, at.first, replies.length);
    let fresh = false;
    if ((opts.describe || opts.groupIsEmpty) && keys.length > 0) {
      const group = `${at.first === 0 ? keys[0] : (await set.keysOf(at.question, 0, 1))[0]}#q`;
      // Asked once per question, at its first line, before anything of this file is written for it.
      if (opts.groupIsEmpty) {
        let empty = emptyAtStart.get(at.question.id);
        if (empty === undefined) emptyAtStart.set(at.question.id, (empty = await opts.groupIsEmpty(group)));
        fresh = empty;
      }
      opts.describe?.(keys, group);
    }
    replies.forEach((r, j) => pending.push({ key: keys[j], sample: extractSample(r.text, r.finishReason), fresh }));
    if (pending.length >= writeBatch) await flush();
  }
  await flush();
  await inFlight;
  return report;
}

/** One line per problem and failure, for a terminal or a panel; long lists are cut with a count. */
export function describeIngest(r: IngestReport, limit = 20): string[] {
  const out = [`${r.file}: ${r.lines} line(s), ${r.stored} sample(s) stored, ${r.alreadyCached} already cached, ${r.failed.length} failed request(s), ${r.problemCount} problem(s)`];
  for (const p of r.problems.slice(0, limit)) out.push(`  ${p.file}:${p.line}: ${p.message}`);
  if (r.problemCount > limit) out.push(`  … and ${r.problemCount - limit} more problem(s)`);
  return out;
}
