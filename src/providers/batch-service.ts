/**
 * What every format's batch service does, in one shape: submit a set of request lines, read the
 * batch's status, and hand over its result files as line sources; and what one result line says.
 * The services live with their formats (openai.ts, anthropic.ts, gemini.ts); batch/ runs them.
 */
import type { Reply, Usage, WireFormatId } from '../model/provider.ts';

/** The service's status mapped to a few phases; `raw` keeps the service's own word. */
export type BatchPhase = 'validating' | 'running' | 'finalizing' | 'cancelling' | 'completed' | 'expired' | 'failed' | 'cancelled';

export interface BatchStatus {
  id: string;
  phase: BatchPhase;
  /** The service's own status (validating, in_progress, ended, BATCH_STATE_RUNNING …). */
  raw: string;
  ended: boolean;
  counts: { total: number; succeeded: number; failed: number };
  /** Why a whole batch failed, in the service's words. */
  message?: string;
  /** Where the results are (file ids, a results URL, inlined responses). */
  output?: unknown;
}

/** A JSONL file's text: whole, as lines, or streamed (batch/jsonl.ts reads each line by line). */
export type LineSource = string | Iterable<string> | AsyncIterable<string> | ReadableStream<string>;

export interface BatchResultFile {
  /** A name for messages ("OpenAI output file file-abc"). */
  name: string;
  lines: LineSource;
}

export interface BatchService {
  /** The wire format whose service this is. */
  readonly api: WireFormatId;
  submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus>;
  status(id: string, signal?: AbortSignal): Promise<BatchStatus>;
  /** Result files of an ended batch: outputs and error files, each read line by line. */
  results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]>;
}

/** A problem on one line of a request or result file: the line is skipped, never guessed. */
export interface LineProblem {
  file: string;
  /** 1-based line number. */
  line: number;
  kind: 'bad-json' | 'bad-shape' | 'unknown-id' | 'duplicate-id' | 'error-line' | 'missing-choices' | 'foreign-id';
  message: string;
  customId?: string;
}

/** What one result line says about one request, independent of the service's format. */
export type ResultOutcome =
  | { customId: string; ok: true; replies: Reply[]; usage: Usage }
  | { customId: string; ok: false; error: { code: string; message: string; status?: number }; expired: boolean };

export type ParsedLine = { outcome: ResultOutcome } | { problem: Omit<LineProblem, 'file' | 'line'> };

/** A result line's problem, in the words batch/ reports it with. */
export const badLine = (message: string, customId?: string, kind: LineProblem['kind'] = 'bad-shape'): ParsedLine => ({ problem: { kind, message, customId } });

/** A result line's error object (nested `{error: {…}}` or flat) as a code, a message and an HTTP status where it is one. */
export function lineError(v: unknown, fallbackCode: string): { code: string; message: string; status?: number } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { code: fallbackCode, message: typeof v === 'string' ? v : 'no error detail given' };
  const rec = v as Record<string, unknown>;
  const inner = typeof rec.error === 'object' && rec.error !== null && !Array.isArray(rec.error) ? (rec.error as Record<string, unknown>) : rec;
  const code = String(inner.code ?? inner.type ?? inner.status ?? fallbackCode);
  const status = typeof inner.code === 'number' ? inner.code : undefined;
  return { code, message: String(inner.message ?? 'no error message given'), ...(status !== undefined ? { status } : {}) };
}
