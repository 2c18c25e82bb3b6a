import { describe, expect, test } from 'vitest';
import { balancedJson, parseJudgeJson, readJudgeReply, stripCodeFence, validatePartition } from '../../../src/clustering/judge-parse';
import { buildJudgeMessages, buildRetryMessages } from '../../../src/clustering/cluster-judge-prompt';
import { dedupeAnswers, expandClasses } from '../../../src/clustering/judge-clusterer';

const valid = '{"clusters":[{"label":"Paris","members":[0,2]},{"label":"Lyon","members":[1]}]}';

describe('reading the judge reply', () => {
  test('plain JSON', () => {
    expect(readJudgeReply(valid, 3)).toEqual({
      ok: true,
      value: [
        { label: 'Paris', members: [0, 2] },
        { label: 'Lyon', members: [1] },
      ],
      repaired: false,
    });
  });

  test('code fences and text around the JSON', () => {
    expect(stripCodeFence('Here:\n```json\n{"a":1}\n```\nDone')).toBe('{"a":1}\n');
    const r = readJudgeReply(`Sure! Here are the groups:\n\n\`\`\`json\n${valid}\n\`\`\`\nLet me know.`, 3);
    expect(r.ok).toBe(true);
    const prose = readJudgeReply(`The grouping is ${valid} as requested.`, 3);
    expect(prose.ok).toBe(true);
  });

  test('braces inside labels do not confuse the scan', () => {
    const r = readJudgeReply('{"clusters":[{"label":"set {1, 2]","members":[0,1]}]}', 2);
    expect(r).toMatchObject({ ok: true, value: [{ label: 'set {1, 2]', members: [0, 1] }] });
  });

  test('a cut-off tail is dropped and repaired when no index is lost', () => {
    // The reply ends after the last complete group; every index is present.
    const cut = '{"clusters":[{"label":"Paris","members":[0,2]},{"label":"Lyon","members":[1]},{"label":"';
    expect(balancedJson(cut)).toEqual({ json: '{"clusters":[{"label":"Paris","members":[0,2]},{"label":"Lyon","members":[1]}]}', repaired: true });
    expect(readJudgeReply(cut, 3)).toMatchObject({ ok: true, repaired: true });
  });

  test('a cut-off reply that loses an index is a failure, never a guess', () => {
    const cut = '```json\n{"clusters":[{"label":"Paris","members":[0,2]},{"label":"Lyon","members":[1,';
    const r = readJudgeReply(cut, 4);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/cut off.*indices missing: 1, 3/);
  });

  test('refusals and empty replies fail with a reason', () => {
    const r = parseJudgeJson("I'm sorry, I can't help with that.");
    expect(r).toMatchObject({ ok: false, error: { kind: 'judge-parse', message: 'the reply holds no complete JSON object' } });
    expect(parseJudgeJson('')).toMatchObject({ ok: false, error: { message: 'the reply was empty' } });
    expect(parseJudgeJson('{"clusters": [1, 2,]}')).toMatchObject({ ok: false, error: { message: expect.stringMatching(/does not parse/) } });
  });
});

describe('strict partition validation', () => {
  test.each([
    [[], 'the JSON is not an object'],
    [{ groups: [] }, 'the JSON has no "clusters" array'],
    [{ clusters: [{ label: '', members: [0, 1] }] }, 'cluster 0 has no label'],
    [{ clusters: [{ label: 'a', members: '0,1' }] }, 'cluster 0 ("a") has no "members" array'],
    [{ clusters: [{ label: 'a', members: [0, '1'] }] }, 'cluster 0 ("a") has a member that is not an integer index: "1"'],
    [{ clusters: [{ label: 'a', members: [0, 1.5] }] }, 'cluster 0 ("a") has a member that is not an integer index: 1.5'],
    [{ clusters: [{ label: 'a', members: [0, 1, 2] }] }, 'indices out of range 0..1: 2'],
    [{ clusters: [{ label: 'a', members: [0, 1] }, { label: 'b', members: [1] }] }, 'indices listed more than once: 1'],
    [{ clusters: [{ label: 'a', members: [0] }] }, 'indices missing: 1'],
  ])('%j → %s', (value, message) => {
    expect(validatePartition(value, 2)).toEqual({ ok: false, error: { kind: 'judge-partition', message, where: 'judge reply' } });
  });

  test('an empty listed class is kept in place (the spec allows it)', () => {
    expect(validatePartition({ clusters: [{ label: 'a', members: [] }, { label: 'b', members: [1, 0] }] }, 2)).toEqual({
      ok: true,
      value: [
        { label: 'a', members: [] },
        { label: 'b', members: [1, 0] },
      ],
    });
  });
});

describe('prompt and deduplication', () => {
  test('the question and the answers are listed with their indices in one JSON data block', () => {
    const [system, user] = buildJudgeMessages('Capital of France?', ['Paris', 'Lyon']);
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/"clusters"/);
    expect(user.content).toContain('"question":"Capital of France?"');
    expect(user.content).toContain('indices 0 to 1');
    expect(user.content).toContain('"answers":[{"index":0,"text":"Paris"},{"index":1,"text":"Lyon"}]');
  });

  test('a retry repeats the faulty reply and says what was wrong', () => {
    const base = buildJudgeMessages('q', ['a', 'b']);
    const retry = buildRetryMessages(base, '{"clusters":[]}', 'indices missing: 0, 1', 2);
    expect(retry.slice(0, 2)).toEqual(base);
    expect(retry[2]).toEqual({ role: 'assistant', content: '{"clusters":[]}' });
    expect(retry[3].content).toMatch(/indices missing: 0, 1.*every index from 0 to 1 exactly once/s);
    expect(buildRetryMessages(base, null, 'timeout', 2)).toBe(base);
  });

  test('identical answers are listed once and expanded back', () => {
    const answers = ['Paris', 'Lyon', ' Paris', 'paris', 'Lyon'];
    const { unique, indexOf } = dedupeAnswers(answers);
    expect(unique).toEqual(['Paris', 'Lyon', 'paris']);
    expect(indexOf).toEqual([0, 1, 0, 2, 1]);
    expect(expandClasses([{ label: 'Lyon', members: [1] }, { label: 'Paris', members: [2, 0] }], indexOf)).toEqual([
      { label: 'Lyon', members: [1, 4] },
      { label: 'Paris', members: [0, 2, 3] },
    ]);
  });
});
