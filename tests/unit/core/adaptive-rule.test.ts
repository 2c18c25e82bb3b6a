import { describe, expect, test } from 'vitest';
import {
  adaptiveRule,
  adaptiveRuleProblems,
  DEFAULT_ADAPTIVE_RULE,
  heldOutSize,
  planAdaptive,
  type AdaptivePlan,
  type AdaptiveRule,
} from '../../../src/core/adaptive-rule';
import { defaultRng } from '../../../src/core/rng';

const rule50 = adaptiveRule(50);
const same = (k: number, key = 'a') => Array.from({ length: k }, () => key);

/** Draw what the plan asks for, one key at a time from `source`, until done; every plan on the way. */
function runToEnd(source: (i: number) => string, rule: AdaptiveRule): { keys: string[]; plans: AdaptivePlan[] } {
  const keys: string[] = [];
  const plans: AdaptivePlan[] = [];
  for (;;) {
    const plan = planAdaptive(keys, rule);
    plans.push(plan);
    if (plan.next.phase === 'done') return { keys, plans };
    for (let j = 0; j < plan.next.draw; j++) keys.push(source(keys.length));
  }
}

describe('planAdaptive on exact small cases', () => {
  test('nothing drawn yet: draw the first round', () => {
    expect(planAdaptive([], rule50)).toEqual({
      selection: 0,
      heldOut: 0,
      rounds: [{ phase: 'selection', start: 0, size: 5 }],
      next: { phase: 'selection', draw: 5 },
    });
  });

  test('all agree: selection stops after the first round, settledHeldOut (20) held-out samples, 25 in all', () => {
    expect(planAdaptive(same(5), rule50)).toEqual({
      selection: 5,
      heldOut: 0,
      rounds: [
        { phase: 'selection', start: 0, size: 5 },
        { phase: 'held-out', start: 5, size: 20 },
      ],
      next: { phase: 'held-out', draw: 20 },
    });
    const done = planAdaptive(same(25), rule50);
    expect(done.next).toEqual({ phase: 'done' });
    expect(done.selection + done.heldOut).toBe(25);
  });

  test('split answers: the question reaches the maximum (every remaining slot is held out)', () => {
    const split = ['a', 'b', 'a', 'c', 'a'];
    const plan = planAdaptive(split, rule50);
    expect(plan.selection).toBe(5);
    expect(plan.rounds.at(-1)).toEqual({ phase: 'held-out', start: 5, size: 45 });
    const { keys } = runToEnd((i) => (i % 2 ? 'a' : 'b'), rule50);
    expect(keys).toHaveLength(50);
  });

  test('held-out answers never change a decision (they are fresh draws, not looked at)', () => {
    const agreeing = [...same(5), ...same(20, 'b')];
    expect(planAdaptive(agreeing, rule50).next).toEqual({ phase: 'done' });
    expect(planAdaptive(agreeing, rule50).rounds).toEqual(planAdaptive(same(25), rule50).rounds);
  });

  test('several selection rounds: continue while they agree, stop at the first disagreement', () => {
    const rule = adaptiveRule(50, { firstRound: 4, roundSize: 3, maxSelection: 10, settledHeldOut: 6 });
    // 4 agree → another round of 3; that round disagrees → unsettled at 7, 43 held out.
    const plan = planAdaptive([...same(4), 'a', 'b', 'a'], rule);
    expect(plan.rounds).toEqual([
      { phase: 'selection', start: 0, size: 4 },
      { phase: 'selection', start: 4, size: 3 },
      { phase: 'held-out', start: 7, size: 43 },
    ]);
    // All 10 agree (rounds 4, 3, 3; the last one cut to the cap): settled, 6 held out.
    const settled = planAdaptive(same(10), rule);
    expect(settled.rounds.map((r) => r.size)).toEqual([4, 3, 3, 6]);
    expect(settled.selection).toBe(10);
  });

  test('an agreement share below 1 settles a selection with a minority answer', () => {
    const rule = adaptiveRule(50, { firstRound: 5, maxSelection: 10, agreement: 0.8, settledHeldOut: 10 });
    // 4 of 5 agree (0.8) → continue; 9 of 10 agree → settled at the cap.
    expect(heldOutSize([...same(4), 'b', ...same(5)], 10, rule)).toBe(10);
    expect(planAdaptive([...same(4), 'b', ...same(5)], rule).rounds.at(-1)).toEqual({ phase: 'held-out', start: 10, size: 10 });
    // 3 of 5 → unsettled at 5.
    expect(planAdaptive(['a', 'a', 'a', 'b', 'c'], rule).rounds.at(-1)).toEqual({ phase: 'held-out', start: 5, size: 45 });
  });

  test('unsettledHeldOut caps an unsettled question', () => {
    const rule = adaptiveRule(50, { unsettledHeldOut: 12 });
    expect(planAdaptive(['a', 'b', 'a', 'a', 'a'], rule).rounds.at(-1)).toEqual({ phase: 'held-out', start: 5, size: 12 });
  });

  test('a small maximum: the held-out blocks shrink to what is left', () => {
    const rule = adaptiveRule(10);
    expect(planAdaptive(same(5), rule).rounds.at(-1)).toEqual({ phase: 'held-out', start: 5, size: 5 });
    // firstRound above the maximum is a problem, but a maxSelection above it is cut to leave a held-out slot.
    const tight = adaptiveRule(6, { firstRound: 5, maxSelection: 20, roundSize: 5 });
    const plan = planAdaptive([...same(5), 'x'], tight);
    expect(plan.selection).toBe(5);
    expect(plan.heldOut).toBe(1);
    expect(plan.next).toEqual({ phase: 'done' });
  });

  test('a partly drawn round asks for the rest of it', () => {
    expect(planAdaptive(same(3), rule50).next).toEqual({ phase: 'selection', draw: 2 });
    expect(planAdaptive(same(12), rule50).next).toEqual({ phase: 'held-out', draw: 13 });
  });

  test('keys beyond the plan (cached by a fixed-n run) are ignored', () => {
    const plan = planAdaptive(same(50), rule50);
    expect(plan.selection + plan.heldOut).toBe(25);
    expect(plan.next).toEqual({ phase: 'done' });
  });
});

describe('replay and bounds over random answer streams', () => {
  const rules: AdaptiveRule[] = [
    rule50,
    adaptiveRule(50, { firstRound: 3, roundSize: 2, maxSelection: 11, agreement: 0.7, settledHeldOut: 7 }),
    adaptiveRule(12, { firstRound: 2, roundSize: 4, maxSelection: 40, settledHeldOut: 30, unsettledHeldOut: 3 }),
  ];
  test('replaying any prefix gives the same plan as the run that drew it; never more than maxSamples', () => {
    const rng = defaultRng(27);
    for (const rule of rules) {
      for (let q = 0; q < 60; q++) {
        const p = rng.random();
        const { keys, plans } = runToEnd(() => (rng.random() < p ? 'a' : rng.random() < 0.5 ? 'b' : 'c'), rule);
        expect(keys.length).toBeLessThanOrEqual(rule.maxSamples);
        const final = plans.at(-1)!;
        expect(final.selection + final.heldOut).toBe(keys.length);
        expect(final.rounds.reduce((s, r) => s + r.size, 0)).toBe(keys.length);
        for (let k = 0; k <= keys.length; k++) {
          const replay = planAdaptive(keys.slice(0, k), rule);
          // The rounds decided so far are a prefix of the final rounds; the counts held are k.
          expect(replay.selection + replay.heldOut).toBe(k);
          expect(final.rounds.slice(0, replay.rounds.length - 1)).toEqual(replay.rounds.slice(0, -1));
          const last = replay.rounds.at(-1)!;
          expect(final.rounds.some((r) => r.start === last.start && r.phase === last.phase && r.size === last.size)).toBe(true);
        }
        // Resuming from the finished keys draws nothing more.
        expect(planAdaptive(keys, rule)).toEqual(final);
      }
    }
  });
});

describe('adaptiveRuleProblems', () => {
  test('the defaults with any maximum ≥ 6 are fine', () => {
    for (const max of [6, 10, 20, 50, 100]) expect(adaptiveRuleProblems(adaptiveRule(max))).toEqual([]);
    expect(adaptiveRuleProblems({ ...DEFAULT_ADAPTIVE_RULE, maxSamples: 50 })).toEqual([]);
  });
  test('each bad setting is named in words', () => {
    const problems = (over: Partial<AdaptiveRule>) => adaptiveRuleProblems({ ...adaptiveRule(50), ...over });
    expect(problems({ maxSamples: 1 })[0]).toMatch(/maximum samples per question must be an integer of at least 2/);
    expect(problems({ maxSamples: 2.5 })[0]).toMatch(/maximum samples/);
    expect(problems({ firstRound: 0 })[0]).toMatch(/first round must be a whole number/);
    expect(problems({ firstRound: 50 })[0]).toMatch(/first round \(50\) must be smaller than the maximum samples per question \(50\)/);
    expect(problems({ roundSize: 1.5 })[0]).toMatch(/round size must be a whole number/);
    expect(problems({ maxSelection: 3 })[0]).toMatch(/largest selection block \(3\) must be at least the first round \(5\)/);
    expect(problems({ agreement: 0 })[0]).toMatch(/agreement share must be in \(0, 1\]/);
    expect(problems({ agreement: 1.2 })[0]).toMatch(/agreement share/);
    expect(problems({ agreement: NaN })[0]).toMatch(/agreement share/);
    expect(problems({ settledHeldOut: 0 })[0]).toMatch(/settled question must be a whole number/);
    expect(problems({ unsettledHeldOut: -1 })[0]).toMatch(/unsettled question must be a whole number/);
    expect(problems({ firstRound: 0, roundSize: 0 })).toHaveLength(2);
  });
  test('planAdaptive refuses a rule with problems', () => {
    expect(() => planAdaptive([], adaptiveRule(1))).toThrow(RangeError);
  });
});
