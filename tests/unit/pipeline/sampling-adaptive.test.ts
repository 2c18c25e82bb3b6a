/**
 * Adaptive sampling through the sampling loop against the loopback mock: easy questions (one
 * answer) stop early, split ones reach the maximum; a paused run resumes mid-round without asking
 * for any slot twice and ends as an uninterrupted run does; a fixed-n run over the same cache pays
 * only for the slots the adaptive run did not draw, and the other way round.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import { readSamples, runSampling } from '../../../src/pipeline/sampling.ts';
import { DEFAULT_ADAPTIVE_RULE, planAdaptive } from '../../../src/core/adaptive-rule.ts';
import { answerKey } from '../../../src/pipeline/adaptive-slots.ts';
import type { Question } from '../../../src/model/rows.ts';
import type { ProviderKind } from '../../../src/model/provider.ts';
import type { AdaptiveSettings, SamplingProgress } from '../../../src/model/run-spec.ts';
import { MockProviderServer } from '../../mock/provider-server.ts';
import { KEY, providerFor } from '../providers/helpers.ts';

const EASY: Question[] = Array.from({ length: 3 }, (_, i) => ({ id: `easy${i}`, question: `Easy question number ${i}?`, answer: 'Paris' }));
const SPLIT: Question[] = Array.from({ length: 2 }, (_, i) => ({ id: `split${i}`, question: `Split question number ${i}?`, answer: 'Red' }));
const QUESTIONS = [EASY[0], SPLIT[0], EASY[1], SPLIT[1], EASY[2]];
const SETTINGS = { temperature: 1, topP: 1, maxTokens: 100 };
const MAX = 40;
// An unsettled question keeps every slot up to the maximum as held-out; a settled one takes 15.
const RULE = { ...DEFAULT_ADAPTIVE_RULE, firstRound: 5, roundSize: 5, maxSelection: 10, agreement: 1, settledHeldOut: 15, unsettledHeldOut: 1000 } as AdaptiveSettings;

/** What the rule makes of a question whose slots answer `answerAt(i)`: its selection block and samples used. */
function ruleOutcome(answerAt: (i: number) => string) {
  const plan = planAdaptive(Array.from({ length: MAX }, (_, i) => answerKey(answerAt(i))), { ...RULE, maxSamples: MAX });
  return { selection: plan.selection, samples: plan.selection + plan.heldOut };
}
const USED = { easy: ruleOutcome(() => 'Paris'), split: ruleOutcome((i) => (i % 2 === 0 ? 'Red' : 'Blue')) };
const ALL = 3 * USED.easy.samples + 2 * USED.split.samples;

let mock: MockProviderServer;
afterEach(async () => {
  await mock?.close();
});

/** Easy questions always answer Paris; split ones alternate Red and Blue by the order the mock serves them. */
async function start() {
  mock = await MockProviderServer.start(
    { apiKey: KEY, questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: { [q.answer]: 1 } })) },
    {
      responder: (req, j) => {
        if (!req.user.includes('Split question')) return undefined;
        return `Answer: ${j % 2 === 0 ? 'Red' : 'Blue'}\nConfidence: 60%`;
      },
    },
  );
}

function run(kind: ProviderKind, cache: MemorySampleCache, extra: Record<string, unknown> = {}) {
  const { provider } = providerFor(mock, kind);
  return runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n: MAX, adaptive: RULE, cache, concurrency: 1, ...extra });
}

const served = () => mock.stats().served;
const expected = (id: string) => (id.startsWith('easy') ? USED.easy : USED.split);

describe('adaptive sampling (runSampling with a stopping rule)', () => {
  it('stops easy questions early and takes split ones to the rule’s held-out block, one request per round', async () => {
    await start();
    const cache = new MemorySampleCache();
    const progress: SamplingProgress[] = [];
    const r = await run('openai', cache, { onProgress: (p: SamplingProgress) => progress.push(p) });
    expect(r.state).toBe('done');
    // What the mock's questions are for: the easy ones stop early, the split ones reach the maximum.
    expect(USED.easy.samples).toBeLessThan(MAX);
    expect(USED.split.samples).toBe(MAX);
    for (const q of QUESTIONS) {
      expect(r.adaptive!.get(q.id), q.id).toEqual(expected(q.id));
      expect(served()[q.id], q.id).toBe(expected(q.id).samples);
    }
    // One request per round (the n per request covers each round): the rounds the rule's replay lists.
    const rounds = (answerAt: (i: number) => string) => planAdaptive(Array.from({ length: MAX }, (_, i) => answerKey(answerAt(i))), { ...RULE, maxSamples: MAX }).rounds.length;
    expect(mock.stats().requests).toBe(3 * rounds(() => 'Paris') + 2 * rounds((i) => (i % 2 === 0 ? 'Red' : 'Blue')));
    const total = ALL;
    expect(cache.map.size).toBe(total);
    const last = progress.at(-1)!;
    expect(last.samples).toEqual({ done: total, cached: 0, total, upTo: false });
    // The total starts at the maximum, an upper bound said as such, and only shrinks.
    expect(progress[0].samples).toMatchObject({ total: QUESTIONS.length * MAX, upTo: true });
    for (let i = 1; i < progress.length; i++) expect(progress[i].samples.total).toBeLessThanOrEqual(progress[i - 1].samples.total);
  });

  it('splits a round into requests of the provider’s n (one reply per request on Anthropic)', async () => {
    await start();
    const cache = new MemorySampleCache();
    const r = await run('anthropic', cache);
    expect(r.state).toBe('done');
    for (const q of QUESTIONS) expect(served()[q.id], q.id).toBe(expected(q.id).samples);
    expect(mock.stats().requests).toBe(ALL);
  });

  it('the stored slots replay to the plan the rule makes from their answers', async () => {
    await start();
    const cache = new MemorySampleCache();
    const { provider } = providerFor(mock, 'openai');
    await run('openai', cache);
    const stored = await readSamples({ questions: QUESTIONS, provider, settings: SETTINGS, n: MAX, cache });
    for (const [i, q] of QUESTIONS.entries()) {
      const used = expected(q.id).samples;
      expect(stored[i].slice(0, used).every((s) => s !== undefined), q.id).toBe(true);
      expect(stored[i].slice(used).every((s) => s === undefined), q.id).toBe(true);
      const plan = planAdaptive(stored[i].slice(0, used).map((s) => answerKey(s!.answer)), { ...RULE, maxSamples: MAX });
      expect(plan.next).toEqual({ phase: 'done' });
      expect(plan.selection).toBe(expected(q.id).selection);
    }
  });

  it('resumes a paused run mid-round: no slot asked twice, the same samples and plans as an uninterrupted run', async () => {
    await start();
    const whole = new MemorySampleCache();
    const uninterrupted = await run('anthropic', whole);
    // The keys hold the server's address: each run's samples are read back through its own provider.
    const answersOf = async (cache: MemorySampleCache) => {
      const stored = await readSamples({ questions: QUESTIONS, provider: providerFor(mock, 'anthropic').provider, settings: SETTINGS, n: MAX, cache });
      return stored.map((slots) => slots.map((x) => x?.answer));
    };
    const wholeAnswers = await answersOf(whole);
    await mock.close();

    await start();
    const cache = new MemorySampleCache();
    const pause = new AbortController();
    let stored = 0;
    // Anthropic asks one reply per request: pausing after 7 stored samples stops inside a round of 5.
    const first = await run('anthropic', cache, {
      signal: pause.signal,
      onSamples: (batch: unknown[]) => {
        stored += batch.length;
        if (stored >= 7) pause.abort('pause');
      },
    });
    expect(first.state).toBe('paused');
    const midRound = first.incomplete.find((x) => x.missing > 0 && x.missing < 5);
    expect(midRound, 'a question stopped inside a round').toBeDefined();
    const afterFirst = cache.map.size;
    expect(afterFirst).toBeLessThan(ALL);

    const second = await run('anthropic', cache);
    expect(second.state).toBe('done');
    expect(second.progress.samples.cached).toBe(afterFirst);
    // Every slot was asked once: what the mock served is what the run uses, question by question.
    for (const q of QUESTIONS) expect(served()[q.id], q.id).toBe(expected(q.id).samples);
    expect(second.adaptive).toEqual(uninterrupted.adaptive);
    expect(cache.map.size).toBe(whole.map.size);
    expect(await answersOf(cache)).toEqual(wholeAnswers);
  });

  it('a fixed-n run over the same questions pays only for the slots the adaptive run did not draw', async () => {
    await start();
    const cache = new MemorySampleCache();
    await run('openai', cache);
    const { provider } = providerFor(mock, 'openai');
    const fixed = await runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n: MAX, cache, concurrency: 1 });
    expect(fixed.state).toBe('done');
    expect(fixed.progress.samples).toEqual({ done: QUESTIONS.length * MAX, cached: ALL, total: QUESTIONS.length * MAX });
    for (const q of QUESTIONS) expect(served()[q.id], q.id).toBe(MAX);
  });

  it('an adaptive run over slots a fixed-n run cached asks for nothing and uses only its own first slots', async () => {
    await start();
    const cache = new MemorySampleCache();
    const { provider } = providerFor(mock, 'openai');
    await runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n: MAX, cache, concurrency: 1 });
    const requests = mock.stats().requests;
    const r = await run('openai', cache);
    expect(r.state).toBe('done');
    expect(mock.stats().requests).toBe(requests);
    for (const q of QUESTIONS) expect(r.adaptive!.get(q.id), q.id).toEqual(expected(q.id));
    expect(r.progress.samples).toEqual({ done: ALL, cached: ALL, total: ALL, upTo: false });
  });

  it('a rule that does not fit the maximum stops the run before anything is sent', async () => {
    await start();
    const r = await run('openai', new MemorySampleCache(), { n: 5 });
    expect(r.state).toBe('stopped');
    expect(r.error?.message).toMatch(/first round \(5\) must be smaller than the maximum/);
    expect(mock.stats().requests).toBe(0);
  });
});
