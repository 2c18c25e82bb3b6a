/**
 * `semece score --adaptive`: the rule a run was sampled by, recorded in --report so the app
 * replays each question's rounds (adaptiveRoundsOf), and checked against every row first: a rule
 * that does not give a row's selection_samples is refused naming the row. Rows written by hand as
 * `semece sample --adaptive` writes them, then clustered and graded by the CLI.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import cluster from '../../../../cli/commands/cluster.ts';
import grade from '../../../../cli/commands/grade.ts';
import score from '../../../../cli/commands/score.ts';
import { adaptiveRule, DEFAULT_ADAPTIVE_RULE, planAdaptive, type AdaptiveRule } from '../../../../src/core/adaptive-rule.ts';
import { adaptiveRoundsOf, answerKey } from '../../../../src/pipeline/adaptive-slots.ts';
import { parseReport } from '../../../../src/formats/report-import.ts';

const MAX = 30;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-adaptive-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(command: typeof score, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A row sampled by `rule`: the answers `answerAt(slot)` for the slots the rule draws, with its selection block. */
function sampledRow(id: string, gold: string, answerAt: (i: number) => string, rule: AdaptiveRule) {
  const plan = planAdaptive(Array.from({ length: rule.maxSamples }, (_, i) => answerKey(answerAt(i))), rule);
  const n = plan.selection + plan.heldOut;
  const answers = Array.from({ length: n }, (_, i) => answerAt(i));
  return {
    id, question: `Question ${id}?`, gold_answer: gold, model: 'openai/gpt-4o-mini', n_samples: n, selection_samples: plan.selection,
    results: answers.map((a) => `Answer: ${a}\nConfidence: 80%`), answer_extracted: answers, confidence_verbalized: answers.map(() => 0.8),
  };
}

/** Rows of an easy question (stops early) and a split one (goes to the maximum), clustered and graded; the paths. */
async function rowsFiles(rows: object[]) {
  await writeFile(join(dir, 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  expect((await cli(cluster, ['--method', 'exact', '--in', join(dir, 'rows.jsonl'), '--out', join(dir, 'clustered.jsonl')])).code).toBe(0);
  expect((await cli(grade, ['--method', 'alias', '--in', join(dir, 'clustered.jsonl'), '--out', join(dir, 'graded.jsonl')])).code).toBe(0);
  return ['--clustered', join(dir, 'clustered.jsonl'), '--graded', join(dir, 'graded.jsonl'), '--B', '20'];
}

const split = (i: number) => (i % 3 === 0 ? 'Blue' : 'Red');

describe('semece score --adaptive', () => {
  it('records the rule and the maximum in the report, whose rounds replay from each question’s answers', async () => {
    const settings = { ...DEFAULT_ADAPTIVE_RULE, firstRound: 4, roundSize: 2, maxSelection: 8 };
    const rule = adaptiveRule(MAX, settings);
    const files = await rowsFiles([sampledRow('easy', 'Paris', () => 'Paris', rule), sampledRow('split', 'Red', split, rule)]);
    const s = await cli(score, [...files, '--adaptive', '--first-round', '4', '--round-size', '2', '--max-selection', '8', '--report', join(dir, 'report.json')]);
    expect(s.code, s.err).toBe(0);
    const doc = parseReport(await readFile(join(dir, 'report.json'), 'utf8'));
    if (!doc.ok) throw new Error(doc.error.message);
    expect(doc.value.settings.adaptive).toEqual(settings);
    expect(doc.value.settings.samples).toBe(MAX);
    const easy = doc.value.models[0].questions.find((q) => q.id === 'easy')!;
    // The easy question's selection grew 4 → 6 → 8 while it agreed, then 20 held out.
    expect(adaptiveRoundsOf(easy.samples!.map((x) => x.answer ?? ''), doc.value.settings)).toEqual([
      { phase: 'selection', start: 0, size: 4 },
      { phase: 'selection', start: 4, size: 2 },
      { phase: 'selection', start: 6, size: 2 },
      { phase: 'held-out', start: 8, size: 20 },
    ]);
  });

  it('--samples gives the maximum when every question stopped early', async () => {
    const rule = adaptiveRule(50);
    const files = await rowsFiles([sampledRow('a', 'Paris', () => 'Paris', rule), sampledRow('b', 'Rome', () => 'Rome', rule)]);
    const without = await cli(score, [...files, '--adaptive', '--report', join(dir, 'r1.json')]);
    expect(without.code, without.err).toBe(0);
    const r1 = parseReport(await readFile(join(dir, 'r1.json'), 'utf8'));
    if (!r1.ok) throw new Error(r1.error.message);
    expect(r1.value.settings.samples).toBe(25);
    const given = await cli(score, [...files, '--adaptive', '--samples', '50', '--report', join(dir, 'r2.json')]);
    expect(given.code, given.err).toBe(0);
    const r2 = parseReport(await readFile(join(dir, 'r2.json'), 'utf8'));
    if (!r2.ok) throw new Error(r2.error.message);
    expect(r2.value.settings.samples).toBe(50);
    expect(r2.value.settings.adaptive).toEqual(DEFAULT_ADAPTIVE_RULE);
  });

  it('refuses a rule that does not give a row’s selection block, naming the row, and writes nothing', async () => {
    const sampledBy = adaptiveRule(MAX, { firstRound: 4, roundSize: 2, maxSelection: 8 });
    const files = await rowsFiles([sampledRow('easy', 'Paris', () => 'Paris', sampledBy), sampledRow('split', 'Red', split, sampledBy)]);
    // The default rule stops selecting at 5, the rows were sampled with a block of 8 (easy) and 4 (split).
    const s = await cli(score, [...files, '--adaptive', '--report', join(dir, 'report.json')]);
    expect(s.code).toBe(2);
    expect(s.out).toBe('');
    expect(s.err).toMatch(/--adaptive: the rule \(first round 5, round size 5, largest selection 5, at most 30 samples\) does not give/);
    expect(s.err).toMatch(/clustered\.jsonl line 1 \(id "easy"\): the rule replayed over its answers gives a selection block of 5 and 25 samples, but the row has selection_samples 8 and 28 samples/);
    expect(s.err).toMatch(/clustered\.jsonl line 2 \(id "split"\): .*selection_samples 4 and 30 samples/);
    await expect(readFile(join(dir, 'report.json'), 'utf8')).rejects.toThrow();
  });

  it('refuses --adaptive over fixed-n rows, and --samples or a round flag without --adaptive', async () => {
    const fixed = sampledRow('f', 'Paris', () => 'Paris', adaptiveRule(MAX));
    const { selection_samples: _, ...row } = { ...fixed };
    const files = await rowsFiles([row]);
    const s = await cli(score, [...files, '--adaptive']);
    expect(s.code).toBe(2);
    expect(s.err).toMatch(/line 1 \(id "f"\): it has no selection_samples: it was not sampled adaptively/);
    const lone = await cli(score, [...files, '--samples', '50']);
    expect(lone.code).toBe(2);
    expect(lone.err).toMatch(/--samples needs --adaptive/);
    const round = await cli(score, [...files, '--first-round', '3']);
    expect(round.code).toBe(2);
    expect(round.err).toMatch(/--first-round, --round-size and --max-selection need --adaptive/);
  });

  it('without --adaptive, adaptive rows still score and --report says the rule is not recorded; the plain document is unchanged', async () => {
    const files = await rowsFiles([sampledRow('easy', 'Paris', () => 'Paris', adaptiveRule(MAX))]);
    const plain = await cli(score, files);
    const checked = await cli(score, [...files, '--adaptive']);
    expect(checked.code, checked.err).toBe(0);
    expect(checked.out).toBe(plain.out);
    const s = await cli(score, [...files, '--report', join(dir, 'report.json')]);
    expect(s.code).toBe(0);
    expect(s.err).toMatch(/note: these rows were sampled adaptively \(selection_samples\); without --adaptive/);
    const doc = parseReport(await readFile(join(dir, 'report.json'), 'utf8'));
    if (!doc.ok) throw new Error(doc.error.message);
    expect(doc.value.settings.adaptive).toBeUndefined();
    const help = await cli(score, ['--help']);
    expect(help.out).toMatch(/--adaptive {11}the rows were sampled with semece sample --adaptive/);
    expect(help.out).toMatch(/--samples N {10}with --adaptive: the run's maximum/);
  });
});
