/**
 * A sample cache whose every stored sample has gone through the one key scrubber
 * (providers/secret-scrub.ts) first. A batch result file is the provider's text, not ours: a
 * server that writes the key into a reply would otherwise put it into OUT.cache.jsonl and,
 * from there, into --out. Interactive sampling scrubs replies in the provider
 * (providers/create-provider.ts); batch results reach the cache through ingest, so the CLI's cache is
 * wrapped here, the one place every sample from a result file is written through.
 */
import type { Sample } from '../src/model/rows.ts';
import type { SampleCache } from '../src/model/sample-cache.ts';
import type { Scrub } from '../src/providers/secret-scrub.ts';

type Entry = { key: string; sample: Sample };

/** The sample with its texts scrubbed (the answer is cut from the reply, so it may hold the key too). */
function scrubbedSample(sample: Sample, scrub: Scrub): Sample {
  const out: Sample = { ...sample, raw: scrub(sample.raw), answer: scrub(sample.answer) };
  if (sample.finishReason !== null) out.finishReason = scrub(sample.finishReason);
  return out;
}

export function scrubbedSampleCache(cache: SampleCache, scrub: Scrub): SampleCache {
  const clean = (entries: Entry[]) => entries.map((e) => ({ key: e.key, sample: scrubbedSample(e.sample, scrub) }));
  const wrapped: SampleCache = {
    get: (keys) => cache.get(keys),
    put: (entries, receipt) => cache.put(clean(entries), receipt),
  };
  // The optional fast paths stay fast: passed through (reads) or scrubbed first (writes).
  if (cache.usage) wrapped.usage = (key) => cache.usage!(key);
  if (cache.getQuestions) wrapped.getQuestions = (bases, n) => cache.getQuestions!(bases, n);
  if (cache.storedIndices) wrapped.storedIndices = (bases, n) => cache.storedIndices!(bases, n);
  if (cache.putMissing) wrapped.putMissing = (entries) => cache.putMissing!(clean(entries));
  return wrapped;
}
