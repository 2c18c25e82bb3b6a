/**
 * What reading a batch's files yields: what a result line says about its request, the requests
 * that came back failed, and a problem found on a line (always with file and line).
 */
// A line's problem and a result line's outcome are read by each wire format's own module.
export type { LineProblem, ResultOutcome } from '../providers/batch-service.ts';

/** A request that came back as an error (or expired): retried interactively or listed. */
export interface FailedRequest {
  customId: string;
  questionId: string;
  indices: number[];
  code: string;
  message: string;
  expired: boolean;
}
