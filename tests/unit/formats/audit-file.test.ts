import { describe, expect, it } from 'vitest';
import {
  auditFileText,
  canonicalClasses,
  mergeAudits,
  MAX_AUDIT_FILE_BYTES,
  MAX_AUDIT_PROBLEMS,
  parseAuditFile,
  type AuditLine,
} from '../../../src/formats/audit-file';
import { mergePlans, planWords, type AuditPlanLine } from '../../../src/formats/audit-plan-line';

const lines: AuditLine[] = [
  { id: 'q1', classes: [[0, 1, 3], [2]], grade: 'CORRECT', by: 'ana', at: '2026-12-06T10:00:00Z' },
  { id: 'q2', classes: [[1], [0, 2]], grade: 'NOT_ATTEMPTED', by: 'ana', at: '2026-12-06T10:01:00Z', model: 'm-b' },
  { id: 'q1', classes: [[0, 1, 2, 3]], grade: 'INCORRECT', by: 'ben', at: '2026-12-06T11:00:00Z' },
];

function problemsOf(text: string, options?: Parameters<typeof parseAuditFile>[1]): string[] {
  const parsed = parseAuditFile(text, options);
  if (parsed.ok) throw new Error('expected problems');
  return parsed.problems;
}

describe('audit file', () => {
  it('round-trips: write, parse, equal', () => {
    const text = auditFileText(lines);
    expect(text.split('\n')).toHaveLength(4);
    expect(parseAuditFile(text)).toEqual({ ok: true, lines, plans: [] });
    // The documented key order, so files diff cleanly.
    expect(text.split('\n')[0]).toBe('{"id":"q1","classes":[[0,1,3],[2]],"grade":"CORRECT","by":"ana","at":"2026-12-06T10:00:00Z"}');
  });

  it('reads a byte order mark, blank lines, CRLF and integer ids', () => {
    const text = '\ufeff{"id": 7, "classes": [[0]], "grade": "CORRECT", "by": "a", "at": "2026-01-01"}\r\n\r\n';
    expect(parseAuditFile(text)).toEqual({ ok: true, lines: [{ id: '7', classes: [[0]], grade: 'CORRECT', by: 'a', at: '2026-01-01' }], plans: [] });
  });

  it('names the file, line and field of each problem', () => {
    const good = JSON.stringify(lines[0]);
    const text = [
      good,
      '{"id": "q3", "classes": [[0]], "grade": "MAYBE", "by": "ana", "at": "2026-12-06T10:00:00Z"}',
      '{"id": "q4", "classes": [[0', // torn
      '',
      good, // duplicate id by the same person
      '{"id": "q5", "classes": [[0, 2], [3]], "grade": "CORRECT", "by": "ana", "at": "2026-12-06T10:00:00Z"}',
      '{"id": "q6", "classes": [[0, 1], [1]], "grade": "CORRECT", "by": "ana", "at": "2026-12-06T10:00:00Z"}',
      '{"id": "q7", "classes": [[0], []], "grade": "CORRECT", "by": "ana", "at": "2026-12-06T10:00:00Z"}',
      '{"id": "q8", "classes": [[0]], "grade": "CORRECT", "at": "2026-12-06T10:00:00Z"}',
      '{"id": "q9", "classes": [[0]], "grade": "CORRECT", "by": "ana", "at": "yesterday"}',
      '[1, 2]',
      '{"id": "", "classes": [[0]], "grade": "CORRECT", "by": "ana", "at": "2026-12-06"}',
      '{"id": "q10", "classes": [[0.5]], "grade": "CORRECT", "by": "ana", "at": "2026-12-06"}',
    ].join('\n');
    const problems = problemsOf(text, { file: 'a.jsonl' });
    expect(problems).toEqual([
      'a.jsonl, line 2, field "grade": unknown grade the string "MAYBE"; expected one of CORRECT, INCORRECT, NOT_ATTEMPTED',
      expect.stringMatching(/^a\.jsonl, line 3: malformed JSON \(/),
      'a.jsonl, line 5, field "id": duplicate id "q1" by "ana", first on line 1',
      'a.jsonl, line 6, field "classes": answer 1 is in no class (the classes must partition 0..2)',
      'a.jsonl, line 7, field "classes": answer 1 is in classes[0] and classes[1]; each answer belongs to one class',
      'a.jsonl, line 8, field "classes": classes[1] is empty',
      'a.jsonl, line 9, field "by": missing',
      'a.jsonl, line 10, field "at": not an ISO 8601 date-time: the string "yesterday"',
      'a.jsonl, line 11: expected a JSON object, got an array',
      'a.jsonl, line 12, field "id": must be a non-empty string or an integer, got the string ""',
      'a.jsonl, line 13, field "classes": classes[0][0] must be a non-negative integer, got number 0.5',
    ]);
  });

  it('checks the partition against the number of answers when it is known', () => {
    const text = auditFileText([lines[0]!, { ...lines[0]!, id: 'q2' }]);
    const answersOf = (l: AuditLine) => (l.id === 'q1' ? 5 : undefined);
    expect(problemsOf(text, { answersOf })).toEqual([
      'line 1, field "classes": partitions 4 answers but the question has 5 (every index 0..4 exactly once)',
    ]);
    expect(parseAuditFile(text, { answersOf: () => 4 }).ok).toBe(true);
  });

  it('refuses an oversize file and stops listing after a bound', () => {
    expect(problemsOf('x'.repeat(MAX_AUDIT_FILE_BYTES + 1), { file: 'big.jsonl' })).toEqual([
      expect.stringMatching(/^big\.jsonl is too large for an audit/),
    ]);
    const many = problemsOf(Array.from({ length: 100 }, () => '{').join('\n'));
    expect(many).toHaveLength(MAX_AUDIT_PROBLEMS + 1);
    expect(many.at(-1)).toMatch(/stopped listing/);
  });

  it('merges people: kept per person, a person\'s latest line wins', () => {
    const ana2: AuditLine = { ...lines[0]!, grade: 'INCORRECT', at: '2026-12-07T09:00:00Z' };
    const merged = mergeAudits([lines, [ana2, { ...lines[2]!, at: '2026-12-01T00:00:00Z' }]]);
    expect(merged.people).toEqual(['ana', 'ben']);
    expect(merged.superseded).toBe(2);
    expect(merged.lines).toEqual([ana2, lines[1], lines[2]]);
  });

  it('writes a partition one way', () => {
    expect(canonicalClasses([[4], [3, 0], [2, 1]])).toEqual([[0, 3], [1, 2], [4]]);
  });

  describe('plan lines', () => {
    const anaPlan: AuditPlanLine = { by: 'ana', draw: 'stratified', seed: 3, strata: 'regime', halfWidth: 0.1, ids: ['q1', 'q2'] };
    const benPlan: AuditPlanLine = { by: 'ben', model: 'm-b', draw: 'plain', seed: 0, ids: ['q2'] };

    it('round-trips the plans beside the lines, plans first, in the documented form', () => {
      const text = auditFileText(lines, [anaPlan, benPlan]);
      expect(text.split('\n')[0]).toBe('{"plan":{"by":"ana","draw":"stratified","seed":3,"strata":"regime","half_width":0.1,"ids":["q1","q2"]}}');
      expect(text.split('\n')[1]).toBe('{"plan":{"by":"ben","model":"m-b","draw":"plain","seed":0,"ids":["q2"]}}');
      expect(parseAuditFile(text)).toEqual({ ok: true, lines, plans: [anaPlan, benPlan] });
    });

    it('reads a file of the first version (no plan line) with no plans', () => {
      const parsed = parseAuditFile(auditFileText(lines));
      expect(parsed.ok && parsed.plans).toEqual([]);
    });

    it('names the line and the plan field at fault', () => {
      const text = [
        '{"plan": {"by": "ana", "draw": "sometimes", "seed": 0, "ids": ["q1"]}}',
        '{"plan": {"by": "ana", "draw": "stratified", "seed": 0, "ids": ["q1"]}}',
        '{"plan": {"by": "ana", "draw": "plain", "seed": -1, "ids": ["q1"]}}',
        '{"plan": {"by": "ana", "draw": "plain", "seed": 0, "ids": ["q1", "q1"]}}',
        '{"plan": {"by": "ana", "draw": "plain", "seed": 0, "ids": ["q1"], "half_width": 2}}',
        '{"plan": {"by": "ana", "draw": "all", "seed": 0, "strata": "regime", "ids": ["q1"]}}',
        '{"plan": "all"}',
      ].join('\n');
      expect(problemsOf(text, { file: 'p.jsonl' })).toEqual([
        'p.jsonl, line 1, field "plan.draw": unknown draw the string "sometimes"; expected one of plain, stratified, all',
        'p.jsonl, line 2, field "plan.strata": missing',
        'p.jsonl, line 3, field "plan.seed": must be a whole number ≥ 0, got number -1',
        'p.jsonl, line 4, field "plan.ids[1]": id "q1" is drawn twice',
        'p.jsonl, line 5, field "plan.half_width": must be a number between 0 and 1, got number 2',
        'p.jsonl, line 6, field "plan.strata": only a stratified draw has strata (this draw is all)',
        'p.jsonl, line 7, field "plan": must be an object, got the string "all"',
      ]);
    });

    it('merging keeps every distinct plan under its person and names a mismatch; one shared draw is no mismatch', () => {
      const benSame: AuditPlanLine = { ...anaPlan, by: 'ben', halfWidth: undefined };
      delete benSame.halfWidth;
      const same = mergePlans([[anaPlan], [anaPlan, benSame]]);
      expect(same.plans).toEqual([anaPlan, benSame]);
      expect(same.mismatch).toBeNull();
      const benOther: AuditPlanLine = { by: 'ben', draw: 'plain', seed: 7, ids: ['q3'] };
      const differ = mergePlans([[anaPlan], [benOther]]);
      expect(differ.plans).toEqual([anaPlan, benOther]);
      expect(differ.mismatch).toBe(
        'the audits were drawn by different plans (ana: 2 questions drawn with seed 3 in proportion to each margin regime, sized for ±0.1; ben: 1 question drawn with seed 7)',
      );
      // Plans of different models are different audits, not a mismatch.
      expect(mergePlans([[anaPlan], [benPlan]]).mismatch).toBeNull();
      expect(planWords({ by: 'cy', draw: 'all', seed: 0, ids: ['a', 'b', 'c'] })).toBe('cy: all 3 questions');
    });
  });
});
