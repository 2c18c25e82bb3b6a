/**
 * How a CLI command that calls a model stops on an error no retry can fix: a refused key (401,
 * 403) or an account out of credit or quota (402, 429 insufficient_quota). The first such error
 * stops every request in flight and every one not yet sent, so a bad key costs one request, not
 * one per question; the command then says why in the words `semece sample` uses. Until one
 * request has come back, the others wait for it: a judge with --concurrency 64 against a
 * refused key sends one request, not 64 at once.
 */
import type { ChatProvider, Completion, CompletionRequest } from '../src/model/provider.ts';
import { isProviderError, type ProviderError } from '../src/providers/errors.ts';

/** The errors that stop the whole command: asking again cannot succeed until the user acts. */
export function stopsCommand(e: unknown): e is ProviderError {
  return isProviderError(e) && (e.kind === 'auth' || e.kind === 'quota');
}

/** A provider that, after the first error that stops the command, sends nothing more. */
export class StopOnFatal implements ChatProvider {
  /** The error that stopped it, once one has. */
  fatal: ProviderError | undefined;
  private readonly stop = new AbortController();
  /** Set while the first request is out; once it is back (whatever it got), the rest fan out. */
  private first: Promise<void> | undefined;
  private opened = false;

  constructor(private readonly inner: ChatProvider) {}

  get config() {
    return this.inner.config;
  }

  /** Aborted once stopped: pass it to the stage so questions not yet started are skipped. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    if (this.fatal) throw this.fatal;
    if (!this.opened) {
      if (this.first) {
        await this.first;
        if (this.fatal) throw this.fatal;
      } else {
        let release = () => {};
        this.first = new Promise<void>((resolve) => (release = resolve));
        try {
          return await this.send(request);
        } finally {
          this.opened = true;
          release();
        }
      }
    }
    return this.send(request);
  }

  private async send(request: CompletionRequest): Promise<Completion> {
    const signal = request.signal ? AbortSignal.any([request.signal, this.stop.signal]) : this.stop.signal;
    try {
      return await this.inner.complete({ ...request, signal });
    } catch (e) {
      if (stopsCommand(e) && !this.fatal) {
        this.fatal = e;
        this.stop.abort();
      }
      throw e;
    }
  }
}

/**
 * The line a command prints when it stops: the provider's advice, then what was kept and that the
 * same command resumes; where nothing was kept the advice's "then resume" would mislead and goes.
 */
export function stoppedLine(command: string, why: string, kept?: { what: string; path: string }): string {
  const reason = why.trim().replace(/\.$/, '');
  if (kept) return `semece ${command}: stopped: ${reason}. ${kept.what} so far are kept in ${kept.path}; repeat the command to resume.`;
  return `semece ${command}: stopped: ${reason.replace(/,? then resume\b/g, ', then run the command again')}. Nothing was kept.`;
}
