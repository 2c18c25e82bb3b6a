/**
 * The exit codes of every `semece` command, in one place, so a script can tell "fix the input"
 * from "try again" from "usable but incomplete" without reading stderr.
 */
export const EXIT = {
  /** Everything asked for was done and written. */
  ok: 0,
  /** A provider or runtime error (a refused key, an exhausted quota, a file that cannot be written). */
  failed: 1,
  /** Bad input: unknown or missing flags, bad values, unreadable or invalid files, nothing to score. */
  badInput: 2,
  /**
   * Partial results: some questions failed or were excluded, or the run stopped early (interrupted,
   * questions still missing samples) and kept what it had; repeat the command to finish where it can resume.
   */
  partial: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The paragraph every command's --help ends with. */
export const EXIT_CODES_HELP = `Exit codes: 0 done; 1 failed (provider or runtime error); 2 bad input (flags, unreadable or
invalid files); 3 partial (some questions failed or were excluded, or the run stopped early and
kept what it had).`;
