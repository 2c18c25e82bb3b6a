/**
 * Samples per request for a server the capability table does not know (`caps.unknown`): the
 * first request that asks for several replies is sent alone, and its answer settles the n limit
 * before the others go. Fewer choices than asked lower the limit (the caller's run-time check);
 * a 400 to n > 1, in whatever words the server uses, is asked once more with n = 1, and if that
 * succeeds the server gets one reply per request from then on. Without this, a whole first wave
 * of requests (one per concurrent worker) would be sent with a guess.
 */
import type { Completion, CompletionRequest, RequestEvent } from '../model/provider.ts';
import type { Capabilities } from './wire-format.ts';
import { ProviderError } from './errors.ts';

type Request = CompletionRequest & { onEvent?: (e: RequestEvent) => void };
type CompleteOnce = (request: Request) => Promise<Completion>;

export const N_PROBE_REFUSED_NOTE = 'The server refused several replies per request: one reply per request from now on.';

export function probeFirstRequest(caps: Capabilities, completeOnce: CompleteOnce, note: (text: string) => void): CompleteOnce {
  // Settles when the probe has; a failed probe clears it so that the next request probes again.
  let probe: Promise<void> | undefined;

  async function probeOnce(request: Request): Promise<Completion> {
    try {
      const result = await completeOnce(request);
      caps.unknown = false;
      return result;
    } catch (e) {
      // Only a refusal of the request itself can be about n; with the limit already 1 it is not.
      if (!(e instanceof ProviderError) || e.kind !== 'bad-request' || caps.maxN === 1) throw e;
      const before = caps.maxN;
      caps.maxN = 1;
      try {
        const result = await completeOnce(request);
        caps.unknown = false;
        note(N_PROBE_REFUSED_NOTE);
        return result;
      } catch (again) {
        // Refused with one reply too: the 400 was about something else, and says so itself.
        caps.maxN = before;
        throw again;
      }
    }
  }

  return async function completeOnceProbed(request) {
    while (caps.unknown && request.n > 1 && caps.maxN > 1) {
      if (probe) {
        await probe;
        continue;
      }
      const first = probeOnce(request);
      probe = first.then(
        () => undefined,
        () => {
          probe = undefined;
        },
      );
      return first;
    }
    return completeOnce(request);
  };
}
