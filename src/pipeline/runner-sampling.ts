/**
 * The run's sample stage over the providers' orchestrator (sampling.ts): one provider per model,
 * its counters mapped to the run meter, failed and retried requests reported with their cause,
 * and a pause that lets requests in flight finish and be stored before stopping, so nothing
 * already paid for is thrown away.
 */
import { createProvider } from '../providers';
import type { RequestEvent, SamplingProvider } from '../providers/types';
import { readSamples, runSampling, SamplingController, type SamplingProgress } from './sampling';
import type { SampleStage } from './runner-stages';
import type { SampledRow } from './types';

/** Passes every request event to `listen` as well as to the orchestrator. */
function listening(provider: SamplingProvider, listen: (e: RequestEvent) => void): SamplingProvider {
  return {
    config: provider.config,
    complete: (r) => provider.complete(r),
    maxN: (s) => provider.maxN(s),
    effectiveSettings: (s, n) => provider.effectiveSettings(s, n),
    notes: () => provider.notes(),
    completeOnce: (r) =>
      provider.completeOnce({
        ...r,
        onEvent: (e) => {
          r.onEvent?.(e);
          listen(e);
        },
      }),
  };
}

export const sampleWithProviders: SampleStage = async (args) => {
  const { dataset, sampling } = args;
  const where = `${args.model.preset} ${args.model.model}`;
  const provider = listening(createProvider({ ...args.model, concurrency: sampling.concurrency }), (e) => {
    if (e.type === 'retrying') args.onError({ ...e.error, status: e.error.status ?? undefined, message: `${e.error.message} (retrying in ${Math.round(e.delayMs)} ms)` });
    else if (e.type === 'failed') args.onError({ ...e.error, status: e.error.status ?? undefined });
  });
  const settings = { temperature: sampling.temperature, topP: sampling.topP, maxTokens: sampling.maxTokens };

  // Question groups (the byQuestion index) follow from the sample keys themselves (store/sample-store.ts).
  const controller = new SamplingController();
  let inFlight = 0;
  let pausing = false;
  const onProgress = (p: SamplingProgress) => {
    inFlight = p.requests.inFlight;
    args.onCounters({ requests: { done: p.requests.done, failed: p.requests.failed, retrying: p.requests.retrying }, samplesDone: p.samples.done, tokens: p.tokens, cost: p.cost, etaMs: p.etaMs });
    if (pausing && inFlight === 0) controller.cancel();
  };
  const onAbort = () => {
    if (args.signal.reason === 'pause' && inFlight > 0) {
      pausing = true;
      controller.pause();
    } else controller.cancel();
  };
  if (args.signal.aborted) onAbort();
  else args.signal.addEventListener('abort', onAbort, { once: true });

  const result = await runSampling({
    questions: dataset.questions,
    provider,
    settings,
    n: sampling.n,
    promptTemplate: sampling.prompt,
    cache: args.cache,
    controller,
    price: args.price,
    concurrency: sampling.concurrency,
    onProgress,
    // Every change, so a pause sees the moment nothing is in flight (the caller throttles what it posts).
    progressIntervalMs: 0,
  });
  args.signal.removeEventListener('abort', onAbort);
  onProgress(result.progress);
  for (const note of result.notes) args.onNote(note);
  args.onEffective?.(result.effective);

  if (result.state === 'cancelled') return { ok: false, error: { kind: 'aborted', message: 'Sampling was stopped.', where } };
  if (result.state === 'stopped') return { ok: false, error: result.error ?? { kind: 'stopped', message: 'Sampling stopped.', where } };
  if (result.state === 'incomplete') {
    const first = result.incomplete[0];
    const cause = first?.error ? ` Last cause: ${first.error.message}` : '';
    return {
      ok: false,
      error: { kind: 'incomplete', retryable: true, where, message: `${result.incomplete.length} question(s) still miss samples after repeated failures; resume the run to try them again.${cause}` },
    };
  }

  const stored = await readSamples({ questions: dataset.questions, provider, settings, n: sampling.n, promptTemplate: sampling.prompt, cache: args.cache });
  const label = `${args.model.preset}/${args.model.model}`;
  const rows: SampledRow[] = [];
  const seen = new Set<string>();
  dataset.questions.forEach((q, i) => {
    if (seen.has(q.id)) return;
    seen.add(q.id);
    const samples = stored[i].filter((s) => s !== undefined);
    rows.push({
      id: q.id,
      question: q.question,
      gold_answer: q.answer,
      ...(q.aliases ? { gold_answer_aliases: q.aliases } : {}),
      model: label,
      n_samples: samples.length,
      results: samples.map((s) => s.raw),
      answer_extracted: samples.map((s) => s.answer),
      confidence_verbalized: samples.map((s) => s.confidence),
    });
  });
  return { ok: true, value: rows };
};
