import { describe, expect, test } from 'vitest';
import { toMcQuestion, type McQuestion } from '../../../src/multiple-choice/prompt';
import { mcSemEceQuestion, NO_OPTION } from '../../../src/multiple-choice/sem-ece-question';
import type { TokenLogprob } from '../../../src/model/provider';

function mcq(answer: string): McQuestion {
  const r = toMcQuestion({ id: 'q1', question: 'Which?', answer, options: ['w', 'x', 'y', 'z'] });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const reply = (letter: string, p: number) => `{"answer": "${letter}", "probability": ${p}}`;

describe('Sem-ECE on multiple-choice samples', () => {
  test('the chosen letter is the class; Sem1, stated and verbalized by hand', () => {
    // 10 samples: B ×6 (p 80,80,70,70,90,90), C ×3 (p 50), one refusal.
    const replies = [reply('B', 80), reply('C', 50), reply('(B)', 80), 'I cannot answer.', reply('B', 70), reply('C', 50), reply('B', 70), reply('B', 90), reply('C', 50), reply('b', 90)];
    const r = mcSemEceQuestion({ question: mcq('B'), replies }, 'mock');
    expect(r.clustered.cluster_labels).toEqual(['B', 'C', NO_OPTION]);
    expect(r.clustered.cluster_sizes).toEqual([6, 3, 1]);
    expect(r.graded).toMatchObject({ modal_cluster_label: 'B', grade: 'CORRECT', Y: 1 });
    expect(r.estimates.sem1).toBe(0.6);
    expect(r.signals.stated).toBeCloseTo((0.8 + 0.8 + 0.7 + 0.7 + 0.9 + 0.9) / 6, 15);
    // verbalized: the spec's mean over all samples, the refusal counting 1.0
    expect(r.estimates.verbalized).toBeCloseTo((0.8 * 2 + 0.7 * 2 + 0.9 * 2 + 0.5 * 3 + 1) / 10, 15);
    const H = -(0.6 * Math.log(0.6) + 0.3 * Math.log(0.3) + 0.1 * Math.log(0.1));
    expect(r.signals.entropyConfidence).toBeCloseTo(Math.exp(-H), 12);
    expect(r.noOption).toBe(1);
    expect(r.estimates.sem2).toBeGreaterThanOrEqual(0);
    expect(r.estimates.sem2).toBeLessThanOrEqual(1);
  });

  test('a wrong modal option is INCORRECT; a modal no-option class is NOT_ATTEMPTED with stated 1/k', () => {
    const wrong = mcSemEceQuestion({ question: mcq('A'), replies: [reply('D', 60), reply('D', 60), reply('A', 90)] }, 'mock');
    expect(wrong.graded).toMatchObject({ grade: 'INCORRECT', Y: 0 });
    expect(wrong.signals.stated).toBeCloseTo(0.6, 15);
    const none = mcSemEceQuestion({ question: mcq('A'), replies: ['no idea', 'cannot say', reply('A', 90)] }, 'mock');
    expect(none.graded).toMatchObject({ modal_cluster_label: NO_OPTION, grade: 'NOT_ATTEMPTED', Y: 0 });
    expect(none.signals.stated).toBe(0.25);
  });

  test('logprob signal: the greedy distribution at the modal letter', () => {
    const top = [{ token: 'B', logprob: -0.5 }, { token: 'C', logprob: -1.0 }];
    const greedy: TokenLogprob[] = [{ token: '{"answer": "', logprob: -0.01 }, { token: 'C', logprob: -1.0, top }, { token: '"}', logprob: -0.01 }];
    const r = mcSemEceQuestion({ question: mcq('B'), replies: [reply('B', 80), reply('B', 80), reply('C', 50)], greedyLogprobs: greedy }, 'mock');
    // Greedy chose C, but the modal class is B: the signal is B's share of the letter softmax.
    expect(r.signals.logprob).toBeCloseTo(Math.exp(-0.5) / (Math.exp(-0.5) + Math.exp(-1.0)), 12);
    const without = mcSemEceQuestion({ question: mcq('B'), replies: [reply('B', 80)] }, 'mock');
    expect(without.signals.logprob).toBeUndefined();
  });

  test('failed requests are not samples', () => {
    const r = mcSemEceQuestion({ question: mcq('B'), replies: [reply('B', 80), null, reply('B', 70)] }, 'mock');
    expect(r.clustered.n_samples).toBe(2);
    expect(r.estimates.sem1).toBe(1);
  });
});
