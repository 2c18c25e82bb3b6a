/**
 * What every provider's batch service does, in one shape: submit a set of request lines, read the
 * batch's status, and hand over its result files as line sources.
 */
import type { LineSource } from './jsonl.ts';

/** The three batch services, by the wire format they speak. */
export type BatchApi = 'openai' | 'anthropic' | 'gemini';

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

export interface BatchResultFile {
  /** A name for messages ("OpenAI output file file-abc"). */
  name: string;
  lines: LineSource;
}

export interface BatchService {
  readonly api: BatchApi;
  submit(lines: Record<string, unknown>[], signal?: AbortSignal): Promise<BatchStatus>;
  status(id: string, signal?: AbortSignal): Promise<BatchStatus>;
  /** Result files of an ended batch: outputs and error files, each read line by line. */
  results(status: BatchStatus, signal?: AbortSignal): Promise<BatchResultFile[]>;
}
