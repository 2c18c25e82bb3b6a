import { describe, expect, it } from 'vitest';
import { JudgeRequestSet, clusteringEntries } from '../../../src/batch/judge-request-set.ts';
import { buildJudgeMessages } from '../../../src/clustering/cluster-judge-prompt.ts';
import { clusteringKey } from '../../../src/pipeline/stage-cache-keys.ts';
import { MODELS, errorLine, successLine } from './fixtures.ts';

const ROWS = [
  { id: 'q1', question: 'Capital of France?', answer_extracted: ['Paris', 'Lyon', 'Paris ', 'paris'] },
  { id: 'q2', question: 'Who wrote Hamlet?', answer_extracted: ['Shakespeare', 'Shakespeare'] },
  { id: 'q3', question: 'Legs of a spider?', answer_extracted: ['8', 'eight', '6'] },
  { id: 'q4', question: 'Largest ocean?', answer_extracted: ['Pacific', 'Atlantic'] },
];

describe('JudgeRequestSet', () => {
  it('one request per question that needs a judge, the same request the interactive judge sends', async () => {
    const set = await JudgeRequestSet.create(MODELS.openai, ROWS);
    const reqs = set.requests();
    expect(reqs.map((r) => r.questionId)).toEqual(['q1', 'q3', 'q4']);
    const body = (reqs[0].line as { body: Record<string, unknown> }).body;
    expect(body.messages).toEqual(buildJudgeMessages('Capital of France?', ['Paris', 'Lyon', 'paris']));
    expect(body.temperature).toBe(0);
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.max_completion_tokens).toBe(512 + 48 * 3);
    expect(set.forced()).toEqual([{ questionId: 'q2', answers: ROWS[1].answer_extracted, result: { ok: true, classes: [{ label: 'Shakespeare', members: [0, 1] }] } }]);
    expect(set.requests((id) => id === 'q3').map((r) => r.questionId)).toEqual(['q1', 'q4']);
  });

  it('reads partitions with the judge parser, expands them to samples, and names bad lines', async () => {
    const set = await JudgeRequestSet.create(MODELS.anthropic, ROWS);
    const [r1, r3, r4] = set.requests();
    const text = [
      successLine('anthropic', r1.customId, ['```json\n{"clusters":[{"label":"Paris","members":[0,2]},{"label":"Lyon","members":[1]}]}\n```']),
      successLine('anthropic', r3.customId, ['{"clusters":[{"label":"8","members":[0]}]}']),
      errorLine('anthropic', r4.customId, 'overloaded'),
      'garbage',
    ].join('\n');
    const { outcomes, problems } = await set.ingest(text, 'judge.jsonl');
    expect(outcomes[0]).toEqual({ questionId: 'q1', answers: ROWS[0].answer_extracted, result: { ok: true, classes: [{ label: 'Paris', members: [0, 2, 3] }, { label: 'Lyon', members: [1] }] } });
    expect(outcomes[1].result.ok).toBe(false);
    expect(outcomes[2]).toMatchObject({ questionId: 'q4', result: { ok: false, error: { message: expect.stringContaining('overloaded') } } });
    expect(problems).toEqual([expect.objectContaining({ file: 'judge.jsonl', line: 4, kind: 'bad-json' })]);

    const spec = { method: 'judge' as const, judge: { kind: 'anthropic' as const, preset: 'anthropic', baseUrl: MODELS.anthropic.baseUrl, model: MODELS.anthropic.model } };
    const questions = new Map([['q1', { id: 'q1', question: 'Capital of France?', answer: 'Paris' }]]);
    const entries = await clusteringEntries(outcomes, questions, spec);
    expect(entries).toHaveLength(1);
    expect(entries[0].key).toBe(await clusteringKey(questions.get('q1')!, ROWS[0].answer_extracted, spec));
  });

  it('refuses a reply meant for other answers', async () => {
    const set = await JudgeRequestSet.create(MODELS.openai, ROWS);
    const changed = await JudgeRequestSet.create(MODELS.openai, [{ ...ROWS[0], answer_extracted: ['Paris', 'Rome'] }]);
    const [r1] = set.requests();
    const { outcomes, problems } = await changed.ingest(successLine('openai', r1.customId, ['{"clusters":[]}']), 'j');
    expect(outcomes).toEqual([]);
    expect(problems[0]).toMatchObject({ line: 1, kind: 'unknown-id' });
  });
});
