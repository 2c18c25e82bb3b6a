/**
 * p(True) through a batch service, after a run's samples are all stored: each round's requests
 * (p-true-request-set.ts) submitted as batches of their own, polled, and their result lines stored
 * under the direct path's keys with the requests' usage receipts; then the next round (the sampled
 * verdicts of questions whose reply carried no logprobs, and whatever failed or expired), until a
 * round has nothing to ask or stores nothing new. Batches submitted by an interrupted session
 * (`pendingIds`) are collected first, never submitted again. The values are read afterwards from
 * the stored replies by pipeline/p-true.ts, the direct path's one reading.
 */
import type { SampleCache, UsageReceipt } from '../model/sample-cache.ts';
import type { StageError } from '../model/rows.ts';
import { ProviderError } from '../providers/errors.ts';
import { errorMessage } from '../model/app-error.ts';
import { replyToSample } from '../pipeline/p-true.ts';
import type { BatchStatus } from './service.ts';
import type { IngestReport } from './ingest.ts';
import type { LineSource } from './jsonl.ts';
import { inParts } from './split-by-limits.ts';
import { pollUntilEnded } from './poll.ts';
import type { BatchRoundOptions } from './batch-rounds.ts';
import { parsedResultLines } from './result-lines.ts';
import type { LineProblem } from './outcomes.ts';
import type { PTrueRequestSet } from './p-true-request-set.ts';

export interface PTrueIngestOptions {
  /** Name used in every message (the file name, or "OpenAI output file"). */
  file: string;
  cache: SampleCache;
  /** Where each request's usage receipt is added up (the run's model, as its samples'); none without. */
  receiptKey?: string;
  alreadyLines?: boolean;
  /** Problems kept in full (default 200); all are counted. */
  maxProblems?: number;
  signal?: AbortSignal;
}

/**
 * A p(True) result file's replies stored, line by line, as the direct path stores them (the first
 * stored reply wins). A bad line is reported with its file and line number and stores nothing;
 * every good line before and after it is kept.
 */
export async function ingestPTrueResults(set: PTrueRequestSet, source: LineSource, opts: PTrueIngestOptions): Promise<IngestReport> {
  const report: IngestReport = { file: opts.file, lines: 0, stored: 0, alreadyCached: 0, shortfall: 0, failed: [], problems: [], problemCount: 0, usage: { inputTokens: 0, outputTokens: 0 } };
  const maxProblems = opts.maxProblems ?? 200;
  const problem = (p: LineProblem) => {
    report.problemCount++;
    if (report.problems.length < maxProblems) report.problems.push(p);
  };
  const receipt = (r: Omit<UsageReceipt, 'key'>): UsageReceipt | undefined => (opts.receiptKey === undefined ? undefined : { key: opts.receiptKey, ...r });
  const served = new Set<string>();
  for await (const { line: lineNo, parsed } of parsedResultLines(source, set.api, opts)) {
    report.lines++;
    if ('problem' in parsed) {
      problem({ file: opts.file, line: lineNo, ...parsed.problem });
      continue;
    }
    const { outcome } = parsed;
    const at = set.locate(outcome.customId);
    if (!at.ok) {
      problem({ file: opts.file, line: lineNo, kind: at.kind, message: at.message, customId: outcome.customId });
      continue;
    }
    const indices = Array.from({ length: at.count }, (_, j) => at.first + j);
    const keys = indices.map((i) => set.keyOf(at.entry, i));
    if (keys.some((k) => served.has(k))) {
      problem({ file: opts.file, line: lineNo, kind: 'duplicate-id', customId: outcome.customId, message: `custom_id ${outcome.customId} appears again (its replies came on an earlier line, which is kept)` });
      continue;
    }
    for (const k of keys) served.add(k);
    if (!outcome.ok) {
      report.failed.push({ customId: outcome.customId, questionId: at.entry.question.id, indices, code: outcome.error.code, message: outcome.error.message, expired: outcome.expired });
      if (!outcome.expired) {
        problem({ file: opts.file, line: lineNo, kind: 'error-line', customId: outcome.customId, message: `custom_id ${outcome.customId} failed: ${outcome.error.code}: ${outcome.error.message}` });
        // Counted as the direct path counts a failed request; the next round asks again.
        const r = receipt({ requests: 0, failed: 1, input: 0, output: 0 });
        if (r) await opts.cache.put([], r);
      }
      continue;
    }
    report.usage.inputTokens += outcome.usage.inputTokens;
    report.usage.outputTokens += outcome.usage.outputTokens;
    const replies = outcome.replies.slice(0, at.count);
    report.shortfall += at.count - replies.length;
    const had = await opts.cache.get(keys.slice(0, replies.length));
    const fresh = replies.flatMap((r, j) => (had[j] === undefined ? [{ key: keys[j], sample: replyToSample(r) }] : []));
    report.alreadyCached += replies.length - fresh.length;
    report.stored += fresh.length;
    // Stored with its receipt even when every reply was stored already: the request was paid for.
    await opts.cache.put(fresh, receipt({ requests: 1, failed: 0, input: outcome.usage.inputTokens, output: outcome.usage.outputTokens }));
  }
  return report;
}

export type PTrueBatchEvent =
  | { type: 'round'; round: number; requests: number }
  | { type: 'submitted'; status: BatchStatus; requests: number }
  | { type: 'status'; status: BatchStatus }
  | { type: 'ingested'; report: IngestReport };

/** maxRounds: default 4 (reply 0, the sampled verdicts, and two for what failed or expired). */
export interface PTrueBatchOptions extends BatchRoundOptions {
  set: PTrueRequestSet;
  receiptKey?: string;
  onEvent?: (e: PTrueBatchEvent) => void;
}

export interface PTrueBatchResult {
  state: 'done' | 'incomplete' | 'failed' | 'cancelled';
  batches: { id: string; phase: string; raw: string; counts: BatchStatus['counts'] }[];
  ingests: IngestReport[];
  /** The tokens of every collected request (what the receipts add up). */
  usage: { requests: number; inputTokens: number; outputTokens: number };
  /** Requests the stored replies still call for (0 when every question's p(True) can be read). */
  missing: number;
  error?: StageError;
}

/** Requests the cache still calls for. */
export async function missingPTrue(set: PTrueRequestSet, cache: SampleCache): Promise<number> {
  let missing = 0;
  for await (const _ of set.requests(cache)) missing++;
  return missing;
}

export async function submitPTrueBatches(opts: PTrueBatchOptions): Promise<PTrueBatchResult> {
  const { set, service, cache, signal } = opts;
  const result: PTrueBatchResult = { state: 'done', batches: [], ingests: [], usage: { requests: 0, inputTokens: 0, outputTokens: 0 }, missing: 0 };
  const emit = (e: PTrueBatchEvent) => opts.onEvent?.(e);
  let stored = 0;
  const collect = async (first: BatchStatus) => {
    const status = await pollUntilEnded(service, first, { ...opts.poll, signal, onStatus: (s) => emit({ type: 'status', status: s }) });
    result.batches.push({ id: status.id, phase: status.phase, raw: status.raw, counts: status.counts });
    const files = await service.results(status, signal);
    if (status.phase === 'failed' && files.length === 0) throw new Error(`p(True) batch ${status.id} failed: ${status.message ?? 'no reason given'}`);
    for (const f of files) {
      const report = await ingestPTrueResults(set, f.lines, { file: f.name, cache, receiptKey: opts.receiptKey, signal });
      stored += report.stored;
      // Answered lines: every line but the problems (failed requests among them) and the expired ones.
      result.usage.requests += report.lines - report.problemCount - report.failed.filter((x) => x.expired).length;
      result.usage.inputTokens += report.usage.inputTokens;
      result.usage.outputTokens += report.usage.outputTokens;
      result.ingests.push(report);
      emit({ type: 'ingested', report });
    }
    await opts.onCollected?.(status.id);
  };

  try {
    for (const id of opts.pendingIds ?? []) await collect(await service.status(id, signal));
    const maxRounds = opts.collectOnly ? 0 : (opts.maxRounds ?? 4);
    for (let round = 1; round <= maxRounds; round++) {
      const before = stored;
      const submitted: BatchStatus[] = [];
      for await (const part of inParts(set.api, set.requests(cache), opts.limits)) {
        if (signal?.aborted) break;
        if (submitted.length === 0) emit({ type: 'round', round, requests: set.counts.requests });
        const status = await service.submit(part.map((p) => p.line), signal);
        await opts.onSubmitted?.(status.id, part.length);
        emit({ type: 'submitted', status, requests: part.length });
        submitted.push(status);
      }
      if (submitted.length === 0) break;
      for (const s of submitted) await collect(s);
      // A round that stored nothing would be asked again the same way: stop, and say what is missing.
      if (stored === before) break;
    }
  } catch (e) {
    if (signal?.aborted) return { ...result, state: 'cancelled', missing: await missingPTrue(set, cache) };
    result.state = 'failed';
    result.error = e instanceof ProviderError
      ? { kind: e.kind, message: e.message, status: e.status ?? undefined, retryable: e.retryable, where: `${service.api} p(True) batch` }
      : { kind: 'batch', message: errorMessage(e), where: `${service.api} p(True) batch` };
  }
  result.missing = await missingPTrue(set, cache);
  if (result.state === 'done' && result.missing > 0) result.state = signal?.aborted ? 'cancelled' : 'incomplete';
  return result;
}
