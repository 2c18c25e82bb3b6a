import { expect, test } from 'vitest';
import { GAP_BANDS, gapReading, runClassroom } from '../../../../src/ui/classroom/classroom-model';
import { curseCaption, hardestQuestion, winnersCurse } from '../../../../src/ui/classroom/classroom-steps';
import { PRESETS } from '../../../../src/ui/classroom/claim-presets';
import { simulateSet } from '../../../../src/core/simulate-families';
import { setOptions, normalizeSettings } from '../../../../src/ui/classroom/classroom-model';

const preset = (id: string) => PRESETS.find((p) => p.id === id)!;

test('the difficulty meter reads the gap in standard errors at n: the hard presets read hard, the easy one easy, at n = 20 and n = 50 alike', () => {
  const band = (id: string) => gapReading(runClassroom(preset(id).settings).gap.mean, preset(id).settings.n).band;
  expect(band('hard')).toBe('hard');
  expect(band('sem2-better')).toBe('hard');
  expect(band('easy')).toBe('easy');
  // The same gap means more at larger n (smaller standard errors).
  expect(gapReading(0.05, 20).inSE).toBeLessThan(gapReading(0.05, 80).inSE);
  expect(gapReading(0.5 / Math.sqrt(50) * GAP_BANDS.hard, 50).band).toBe('hard');
});

test("the walk-through's caption says what the question shown does: Sem2 above c* is said as above, never as below", () => {
  expect(curseCaption({ sem1: 0.6, sem2: 0.34, question: { cStar: 0.303 } })).toMatch(/^Here Sem1 = 60\.0% lands above c\* = 30\.3%: .* Sem2 = 34\.0% lands above it: on a single question .* over many questions that Sem2 lands a little below c\*/);
  expect(curseCaption({ sem1: 0.6, sem2: 0.25, question: { cStar: 0.303 } })).toMatch(/Sem2 = 25\.0% lands below it: counting the winner in fresh samples/);
  expect(curseCaption({ sem1: 0.302, sem2: 0.303, question: { cStar: 0.303 } })).toMatch(/^Here Sem1 = 30\.2% matches c\* = 30\.3%\. Sem2 = 30\.3% matches it/);
  // On the default preset's hardest question, the caption agrees with its own numbers.
  const s = normalizeSettings(preset('hard').settings);
  const sim = simulateSet(setOptions(s));
  const curse = winnersCurse(sim[hardestQuestion(sim)], s.selection);
  const text = curseCaption(curse);
  const side = curse.sem2 > curse.question.cStar + 0.005 ? 'lands above' : curse.sem2 < curse.question.cStar - 0.005 ? 'lands below' : 'matches';
  expect(text).toContain(`Sem2 = ${(curse.sem2 * 100).toFixed(1)}% ${side} it`);
});

test('ties broken as clustering breaks them (first appearance) are shown beside the simulator numbering: at n = 20 on hard questions Sem2 reads lower', () => {
  const r = runClassroom(preset('hard').settings);
  expect(Number.isFinite(r.bias2AsClustered.mean)).toBe(true);
  // Renumbering never changes Sem2 without a tie, and a tie then goes to a class that is not always the favourite.
  expect(r.bias2AsClustered.mean).toBeLessThan(r.bias2.mean);
});

test('first-appearance numbering: classes numbered in the order the samples show them', async () => {
  const { firstAppearanceLabels } = await import('../../../../src/ui/classroom/classroom-model');
  expect(Array.from(firstAppearanceLabels(new Int32Array([2, 2, 0, 1, 0, 2])))).toEqual([0, 0, 1, 2, 1, 0]);
});
