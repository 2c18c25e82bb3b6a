/**
 * The one run lifecycle (pipeline/run-lifecycle.ts) on its own, with phases written here and the
 * in-memory run repository: phase events reach the meter in order, a skipped phase is never
 * entered, a failing phase fails the run (a partial report keeps the status and says why), a
 * throw fails it as internal naming its stage unless the error has a kind of its own, a pause and a cancel stop it, and checkpoints
 * follow the injected clock, never the wall clock.
 */
import { describe, expect, test } from 'vitest';
import { MemoryRunRepository } from '../../../src/model/run-repository';
import { newRun } from '../../../src/pipeline/runner';
import { DONE, runPhases, type Phase, type PhaseContext } from '../../../src/pipeline/run-lifecycle';
import type { PhaseEvent } from '../../../src/pipeline/run-meter';
import type { RunRecord, RunSpec } from '../../../src/model/run-spec';
import { AppError } from '../../../src/model/app-error';

const SPEC: RunSpec = {
  title: 'lifecycle',
  dataset: { name: 'd', source: 'test', questions: [{ id: 'q1', question: 'Q?', answer: 'A' }] },
  models: [{ kind: 'openai', preset: 'vllm', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }],
  sampling: { n: 2, temperature: 1, maxTokens: 16, prompt: '{question}', concurrency: 1 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
};

async function stored(status: RunRecord['status'] = 'queued') {
  const runs = new MemoryRunRepository();
  const run = { ...newRun(SPEC, 'run-1', new Date(0)), status };
  await runs.saveRun(run);
  return runs;
}

const go = () => new AbortController().signal;

describe('runPhases', () => {
  test('phases are entered and finished in order, the meter counts them, a skipped phase is only marked', async () => {
    const runs = await stored();
    const events: PhaseEvent[] = [];
    const plan = (ctx: PhaseContext): Phase[] => [
      { stage: 'dataset', total: () => 1, run: async () => DONE },
      { stage: 'cluster', skipped: true },
      {
        stage: 'sample',
        total: () => 4,
        run: async () => {
          ctx.meter.advance(4);
          return DONE;
        },
      },
    ];
    const done = await runPhases('run-1', {}, { runs, onPhase: (e) => events.push(e), now: () => 0 }, go(), plan);
    expect(done.status).toBe('done');
    expect(events).toEqual([
      { type: 'enter', stage: 'dataset', total: 1 },
      { type: 'finish', stage: 'dataset', status: 'done' },
      { type: 'finish', stage: 'cluster', status: 'skipped' },
      { type: 'enter', stage: 'sample', total: 4 },
      { type: 'finish', stage: 'sample', status: 'done' },
    ]);
    expect(done.progress.stages.cluster.status).toBe('skipped');
    expect(done.progress.stages.sample).toMatchObject({ status: 'done', done: 4, total: 4 });
    expect((await runs.getRun('run-1'))?.status).toBe('done');
  });

  test('a failing phase fails the run with its cause and runs nothing after it; a partial report keeps the status and says why', async () => {
    const failing = (after: string[]) => (): Phase[] => [
      { stage: 'dataset', total: () => 1, run: async () => ({ status: 'failed', error: { kind: 'bad-dataset', message: 'nothing usable', where: 'dataset' } }) },
      { stage: 'sample', total: () => 1, run: async () => (after.push('sample'), DONE) },
    ];
    const after: string[] = [];
    const failed = await runPhases('run-1', {}, { runs: await stored() }, go(), failing(after));
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ kind: 'bad-dataset', message: 'nothing usable' });
    expect(failed.progress.stages.dataset.status).toBe('failed');
    expect(after).toEqual([]);

    const paused = await stored('paused');
    const partial = await runPhases('run-1', {}, { runs: paused }, go(), failing(after), { partial: true });
    expect(partial.status).toBe('paused');
    expect(partial.partialError).toMatchObject({ kind: 'bad-dataset' });
    expect((await paused.getRun('run-1'))?.status).toBe('paused');
  });

  test('a phase that throws fails the run as internal, naming its stage; a key in the message is scrubbed', async () => {
    const key = 'sk-lifecycle-secret-0123456789';
    const plan = (): Phase[] => [{ stage: 'grade', total: () => 1, run: async () => { throw new Error(`boom with ${key}`); } }];
    const failed = await runPhases('run-1', { 'vllm@http://127.0.0.1:9': key }, { runs: await stored() }, go(), plan);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ kind: 'internal', where: 'stage grade' });
    expect(JSON.stringify(failed)).not.toContain(key);
  });

  test("a thrown error with a kind of its own keeps it: an AppError, with its own where, or a provider's error as plain data", async () => {
    const throwing = (thrown: unknown) => (): Phase[] => [{ stage: 'cluster', total: () => 1, run: async () => { throw thrown; } }];
    const runs = await stored();
    const app = await runPhases('run-1', {}, { runs }, go(), throwing(new AppError({ kind: 'storage-full', message: 'no room left', where: 'sample cache' })));
    expect(app.status).toBe('failed');
    expect(app.error).toEqual({ kind: 'storage-full', message: 'no room left', where: 'sample cache' });
    expect((await runs.getRun('run-1'))?.error).toEqual(app.error);
    const provider = await runPhases('run-1', {}, { runs: await stored() }, go(), throwing({ kind: 'auth', message: 'key refused', status: 401 }));
    expect(provider.error).toEqual({ kind: 'auth', message: 'key refused', where: 'stage cluster', status: 401 });
  });

  test('a pause stops the run as paused, a cancel as cancelled, whatever the phase returned', async () => {
    for (const [reason, status] of [['pause', 'paused'], ['cancel', 'cancelled']] as const) {
      const ctl = new AbortController();
      const plan = (): Phase[] => [
        { stage: 'sample', total: () => 1, run: async () => (ctl.abort(reason), { status: 'failed', error: { kind: 'aborted', message: 'stopped' } }) },
      ];
      const stopped = await runPhases('run-1', {}, { runs: await stored() }, ctl.signal, plan);
      expect(stopped.status).toBe(status);
      expect(stopped.error).toBeUndefined();
    }
  });

  test('checkpoints follow the injected clock: a save when more than a second has passed since the last', async () => {
    const runs = await stored();
    let t = 0;
    const saves: number[] = [];
    const saveRun = runs.saveRun.bind(runs);
    runs.saveRun = async (run) => {
      saves.push(t);
      return saveRun(run);
    };
    const plan = (ctx: PhaseContext): Phase[] => [
      {
        stage: 'sample',
        total: () => 3,
        run: async () => {
          for (const step of [500, 400, 200]) {
            t += step;
            ctx.meter.advance();
            ctx.notify();
          }
          return DONE;
        },
      },
    ];
    await runPhases('run-1', {}, { runs, now: () => t }, go(), plan);
    // The start, one checkpoint at 1100 (more than 1000 after the start at 0), and the end.
    expect(saves).toEqual([0, 1100, 1100]);
    expect((await runs.getRun('run-1'))?.updatedAt).toBe(new Date(1100).toISOString());
  });
});
