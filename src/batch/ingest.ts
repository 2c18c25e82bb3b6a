/**
 * Storing a result file's replies in the sample cache, line by line, under the keys interactive
 * sampling uses. Nothing on a bad line is guessed: the line is reported (file, line, what is wrong)
 * and its samples stay missing, so the next interactive run or batch asks for exactly those.
 * Writes go out in big batches through the cache's putMissing (one look-and-write transaction
 * in IndexedDB), one in flight while the next is parsed, so memory stays bounded however long the
 * file is. A question's key base is hashed once, whichever lines and how many carry its samples.
 */
import { extractSample } from '../pipeline/extract.ts';
import { withSequenceLogprob } from '../pipeline/sequence-logprob.ts';
import { keyAt, putMissing, type SampleCache } from '../model/sample-cache.ts';
import type { Sample } from '../model/rows.ts';
import type { LineSource } from './jsonl.ts';
import type { SampleRequestSet } from './request-set.ts';
import { parsedResultLines } from './result-lines.ts';
import type { FailedRequest, LineProblem } from './outcomes.ts';

export interface IngestOptions {
  /** Name used in every message (the file name, or "OpenAI output file"). */
  file: string;
  cache: SampleCache;
  /**
   * Samples per cache write (default 20,000): big writes, one record per question in the
   * by-question store, while at most two batches are held (one being written, one being parsed).
   */
  writeBatch?: number;
  /** Problems kept in full (default 200); all are counted. */
  maxProblems?: number;
  alreadyLines?: boolean;
  /** After each write: lines read and samples stored so far. */
  onProgress?: (p: { lines: number; stored: number }) => void;
  signal?: AbortSignal;
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
  // One digest per question, not per line: a file of one reply per line (Anthropic) has n lines a question.
  const bases = new Map<string, string>();
  let pending: { key: string; sample: Sample }[] = [];
  const writeBatch = opts.writeBatch ?? 20_000;
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
  const write = async (batch: { key: string; sample: Sample }[]) => {
    // The first stored reply wins: samples already cached (interactively, or by an earlier file) are kept.
    const stored = await putMissing(opts.cache, batch);
    report.alreadyCached += batch.length - stored;
    report.stored += stored;
    opts.onProgress?.({ lines: report.lines, stored: report.stored });
  };

  for await (const { line: lineNo, parsed } of parsedResultLines(source, set.api, opts)) {
    report.lines++;
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
    let base = bases.get(at.question.id);
    if (base === undefined) bases.set(at.question.id, (base = await set.keyBase(at.question)));
    for (let j = 0; j < replies.length; j++) pending.push({ key: keyAt(base, at.first + j), sample: withSequenceLogprob(extractSample(replies[j].text, replies[j].finishReason), replies[j].logprobs) });
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
