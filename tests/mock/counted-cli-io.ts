/**
 * The Io of a CLI command run in-process against a server that may not be there: its output
 * collected, the HTTP client's real fetch counted (attempts, responses) and its sleep between
 * retries made instant, so a test bounds what a command sends by counts, never by clock.
 */
import { abortableSleep } from '../../src/providers/http.ts';

export function countedCliIo(env: NodeJS.ProcessEnv, onResponse: (n: number) => Promise<void> | void = () => {}) {
  const out: string[] = [];
  const err: string[] = [];
  const counts = { attempts: 0, responses: 0 };
  const fetchCounted: typeof fetch = async (input, init) => {
    counts.attempts++;
    const res = await fetch(input, init);
    await onResponse(++counts.responses);
    return res;
  };
  const io = {
    out: (s: string) => out.push(s),
    err: (s: string) => err.push(s),
    env,
    providerDeps: { http: { fetch: fetchCounted, sleep: (_ms: number, signal?: AbortSignal) => abortableSleep(0, signal) } },
  };
  return { io, out, err, counts };
}
