/**
 * What reading a batch's files yields: what a result line says about its request, the requests
 * that came back failed, and a problem found on a line (always with file and line).
 */
import type { Reply, Usage } from '../model/provider.ts';

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

/** A request that came back as an error (or expired): retried interactively or listed. */
export interface FailedRequest {
  customId: string;
  questionId: string;
  indices: number[];
  code: string;
  message: string;
  expired: boolean;
}
