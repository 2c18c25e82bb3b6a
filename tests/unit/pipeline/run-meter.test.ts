import { describe, expect, it } from 'vitest';
import { RunMeter } from '../../../src/pipeline/run-meter.ts';
import { emptyProgress, type SamplingProgress } from '../../../src/model/run-spec.ts';
import { secretScrubber } from '../../../src/providers/secret-scrub.ts';

/** One model's progress exactly as the sampling loop reports it. */
function loopProgress(over: Partial<SamplingProgress> = {}): SamplingProgress {
  return {
    state: 'running',
    requests: { done: 0, failed: 0, retrying: 0, handled: 0, retries: 0, inFlight: 0 },
    samples: { done: 0, cached: 0, total: 0 },
    tokens: { input: 0, output: 0 },
    cost: 0,
    etaMs: null,
    elapsedMs: 0,
    ...over,
  };
}

describe('RunMeter', () => {
  it("sums each model's sampling progress, as the loop reports it, onto what the run had before", () => {
    const before = emptyProgress(40);
    before.requests = { done: 7, failed: 2, retrying: 3 };
    before.tokens = { input: 100, output: 50 };
    before.cost = 0.5;
    const meter = new RunMeter(before, {}, () => 0);
    meter.enterStage('sample', 40);
    const base = structuredClone({ requests: meter.progress.requests, tokens: meter.progress.tokens, cost: meter.progress.cost });

    meter.sampleCounters(base, [
      loopProgress({ requests: { done: 4, failed: 1, retrying: 1, handled: 3, retries: 2, inFlight: 3 }, samples: { done: 12, cached: 5, total: 20 }, tokens: { input: 10, output: 20 }, cost: 0.25, etaMs: 900 }),
      loopProgress({ requests: { done: 6, failed: 0, retrying: 2, handled: 2, retries: 2, inFlight: 1 }, samples: { done: 8, cached: 0, total: 20 }, tokens: { input: 30, output: 40 }, cost: 0.125, etaMs: 1500 }),
    ]);

    const p = meter.snapshot();
    // Handled requests (retried or sent again) add to what the run had; a record without them counts from 0.
    expect(p.requests).toEqual({ done: 17, failed: 3, retrying: 3, handled: 5 });
    expect(p.tokens).toEqual({ input: 140, output: 110 });
    expect(p.cost).toBe(0.875);
    expect(p.samples.done).toBe(20);
    expect(p.stages.sample.done).toBe(20);
    // The slowest model decides when sampling ends.
    expect(p.etaMs).toBe(1500);
  });

  it('has no cost once one model has no price, and no ETA while no model has a rate', () => {
    const meter = new RunMeter(undefined, {}, () => 0);
    meter.enterStage('sample', 10);
    const base = { requests: meter.progress.requests, tokens: meter.progress.tokens, cost: meter.progress.cost };
    meter.sampleCounters(base, [loopProgress({ cost: 0.1 }), loopProgress({ cost: null })]);
    expect(meter.progress.cost).toBeNull();
    expect(meter.progress.etaMs).toBeNull();
  });

  it('estimates the time left in a stage from the rate since it started', () => {
    let t = 1_000;
    const meter = new RunMeter(undefined, {}, () => t);
    meter.enterStage('cluster', 10, 2);
    t += 400;
    meter.advance(4);
    // 4 done in 400 ms, 4 left.
    expect(meter.progress.etaMs).toBe(400);
    meter.finishStage('cluster');
    expect(meter.progress.stages.cluster).toEqual({ status: 'done', done: 10, total: 10, cached: 2 });
    expect(meter.progress.etaMs).toBe(0);
  });

  it('keeps handled events apart from errors, and ends sampling at the samples stored, not its total', () => {
    const meter = new RunMeter(undefined, {}, () => 0);
    meter.enterStage('sample', 40);
    meter.progress.samples = { done: 0, total: 40 };
    const base = structuredClone({ requests: meter.progress.requests, tokens: meter.progress.tokens, cost: meter.progress.cost });
    meter.sampleCounters(base, [loopProgress({ samples: { done: 38, cached: 0, total: 40 } })]);
    meter.handled({ kind: 'bad-request', status: 400, message: 'n > 1 refused (sent again another way)' });
    meter.finishStage('sample');
    expect(meter.progress.errors).toEqual([]);
    expect(meter.progress.handled).toEqual([{ kind: 'bad-request', status: 400, message: 'n > 1 refused (sent again another way)' }]);
    expect(meter.progress.stages.sample).toMatchObject({ status: 'done', done: 38, total: 40 });
  });

  it('records every error through the run\'s scrubber and returns what it recorded', () => {
    const key = 'sk-meter-0123456789abcdef';
    const meter = new RunMeter(undefined, {}, () => 0, secretScrubber([key]));
    const clean = meter.error({ kind: 'auth', message: `refused ${key.slice(3, 15)}`, where: `u:${key}` });
    expect(clean).toEqual({ kind: 'auth', message: 'refused [key]', where: 'u:[key]' });
    expect(meter.progress.errors).toEqual([clean]);
  });
});
