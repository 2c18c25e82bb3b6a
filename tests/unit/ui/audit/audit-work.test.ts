import { describe, expect, it } from 'vitest';
import { allLines, allPlans, emptyAudit, importLines, personLines, planLine, withEntry } from '../../../../src/ui/audit/audit-work';
import { auditFileText, parseAuditFile } from '../../../../src/formats/audit-file';
import { planStrata } from '../../../../src/pipeline/audit-plan';
import { drawPlan, strataOf } from '../../../../src/ui/audit/audit-plan';
import type { AuditLine } from '../../../../src/formats/audit-file';
import type { ModelReport } from '../../../../src/model/report';

const one = { models: [{ model: 'm' }] } as unknown as { models: ModelReport[] };
const two = { models: [{ model: 'm' }, { model: 'n' }] } as unknown as { models: ModelReport[] };
const line = (id: string, by: string, at: string, grade: AuditLine['grade'] = 'CORRECT'): AuditLine => ({ id, classes: [[0, 1], [2]], grade, by, at });

describe("the person's audit and the file's lines", () => {
  it('writes a line per graded question, canonical partitions, the model only where the report has several', () => {
    let a = emptyAudit('r', 'ana', 't0');
    a = withEntry(a, { id: 'q1', model: 'm', classes: [[2], [1, 0]], grade: 'INCORRECT', at: '2026-01-01T00:00:00Z' }, 't1');
    a = withEntry(a, { id: 'q2', model: 'm', classes: [[0]], grade: null, at: '2026-01-01T00:00:00Z' }, 't2');
    expect(personLines(a, one)).toEqual([{ id: 'q1', classes: [[0, 1], [2]], grade: 'INCORRECT', by: 'ana', at: '2026-01-01T00:00:00Z' }]);
    expect(personLines(a, two)[0].model).toBe('m');
    // An edit of the same question replaces its entry.
    a = withEntry(a, { id: 'q1', model: 'm', classes: [[0, 1, 2]], grade: 'CORRECT', at: '2026-01-02T00:00:00Z' }, 't3');
    expect(a.entries.map((e) => [e.id, e.grade])).toEqual([['q1', 'CORRECT'], ['q2', null]]);
  });

  it("a fresh audit takes the one person's file as its own (another browser); other people's lines are kept apart, one per question and person", () => {
    const fresh = importLines(emptyAudit('r', 'me', 't0'), [line('q1', 'ana', '2026-01-01T00:00:00Z'), line('q2', 'ana', '2026-01-01T00:00:00Z')], one, 't1');
    expect(fresh.record.person).toBe('ana');
    expect([fresh.own, fresh.others]).toEqual([2, 0]);
    expect(allLines(fresh.record, one)).toEqual([line('q1', 'ana', '2026-01-01T00:00:00Z'), line('q2', 'ana', '2026-01-01T00:00:00Z')]);

    const bo = importLines(fresh.record, [line('q1', 'bo', '2026-01-01T00:00:00Z', 'INCORRECT'), line('q1', 'ana', '2025-01-01T00:00:00Z', 'INCORRECT')], one, 't2');
    expect(bo.record.person).toBe('ana');
    // Ana's older line does not replace her newer work.
    expect(bo.record.entries.find((e) => e.id === 'q1')?.grade).toBe('CORRECT');
    expect(bo.record.others).toEqual([line('q1', 'bo', '2026-01-01T00:00:00Z', 'INCORRECT')]);
    const again = importLines(bo.record, [line('q1', 'bo', '2026-02-01T00:00:00Z')], one, 't3');
    expect(again.record.others).toEqual([line('q1', 'bo', '2026-02-01T00:00:00Z')]);
  });

  it('draws the plan with the pipeline\'s seeded draw: the same seed, the same questions', () => {
    const model = { model: 'm', questions: Array.from({ length: 30 }, (_, i) => ({ id: `q${i}`, regime: i % 3 === 0 ? 'jensen' : 'large-margin' })) } as unknown as ModelReport;
    const a = drawPlan(model, { model: 'm', k: 6, seed: 3, stratifyBy: 'regime' });
    expect(a.ids).toHaveLength(6);
    expect(drawPlan(model, { model: 'm', k: 6, seed: 3, stratifyBy: 'regime' })).toEqual(a);
    // In proportion to the regimes: a third are Jensen.
    expect(a.ids.filter((id) => Number(id.slice(1)) % 3 === 0)).toHaveLength(2);
    expect(drawPlan(model, { model: 'm', k: 99, seed: 3, stratifyBy: null }).ids).toHaveLength(30);
    expect(strataOf('topic')).toEqual({ by: 'field', field: 'topic' });
  });

  it("the plan travels in the audit file: written, read back, and taken up by a fresh audit in another browser", () => {
    const model = { model: 'm', questions: Array.from({ length: 30 }, (_, i) => ({ id: `q${i}`, regime: i % 3 === 0 ? 'jensen' : 'large-margin' })) } as unknown as ModelReport;
    const doc = { models: [model] };
    let a = emptyAudit('r', 'ana', 't0');
    a = { ...a, plan: drawPlan(model, { model: 'm', k: 6, seed: 3, stratifyBy: 'regime', halfWidth: 0.15 }) };
    a = withEntry(a, { id: a.plan!.ids[0]!, model: 'm', classes: [[0, 1], [2]], grade: 'CORRECT', at: '2026-01-01T00:00:00Z' }, 't1');
    const text = auditFileText(allLines(a, doc), allPlans(a, doc).plans);
    expect(JSON.parse(text.split('\n')[0]!)).toEqual({ plan: { by: 'ana', draw: 'stratified', seed: 3, strata: 'regime', half_width: 0.15, ids: a.plan!.ids } });
    const parsed = parseAuditFile(text);
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const elsewhere = importLines(emptyAudit('r', 'me', 't2'), parsed.lines, doc, 't3', parsed.plans).record;
    expect(elsewhere.person).toBe('ana');
    expect(elsewhere.plan).toEqual(a.plan);
    expect(elsewhere.otherPlans).toBeUndefined();
    expect(planStrata(parsed.plans)).toEqual({ by: 'regime' });
    // Every question: draw 'all' (the seed means nothing then); one model: no model named.
    const all = planLine({ ...a, plan: drawPlan(model, { model: 'm', k: 30, seed: 0, stratifyBy: null }) }, doc)!;
    expect([all.draw, all.ids.length, all.model]).toEqual(['all', 30, undefined]);
    expect(planLine({ ...a, plan: drawPlan(model, { model: 'm', k: 5, seed: 1, stratifyBy: null }) }, { models: [model, { ...model, model: 'n' }] })!.model).toBe('m');
  });

  it("merging another person's file keeps both plans, says they differ, and stratifies by neither", () => {
    const model = { model: 'm', questions: Array.from({ length: 30 }, (_, i) => ({ id: `q${i}`, regime: 'jensen' })) } as unknown as ModelReport;
    const doc = { models: [model] };
    const mine = { ...emptyAudit('r', 'ana', 't0'), plan: drawPlan(model, { model: 'm', k: 4, seed: 1, stratifyBy: 'regime' }) };
    const boPlan = planLine({ ...emptyAudit('r', 'bo', 't0'), plan: drawPlan(model, { model: 'm', k: 4, seed: 2, stratifyBy: null }) }, doc)!;
    const merged = importLines(withEntry(mine, { id: 'q0', model: 'm', classes: [[0, 1, 2]], grade: 'CORRECT', at: '2026-01-01T00:00:00Z' }, 't1'), [line('q1', 'bo', '2026-01-01T00:00:00Z')], doc, 't2', [boPlan]);
    expect(merged.record.plan).toEqual(mine.plan);
    expect(merged.record.otherPlans).toEqual([boPlan]);
    const plans = allPlans(merged.record, doc);
    expect(plans.plans.map((p) => p.by)).toEqual(['ana', 'bo']);
    expect(plans.mismatch).toMatch(/^the audits were drawn by different plans \(ana: 4 questions drawn with seed 1 in proportion to each margin regime; bo: 4 questions drawn with seed 2\)$/);
    expect(planStrata(plans.plans)).toEqual({ by: 'none' });
    // The same file imported again adds nothing.
    expect(importLines(merged.record, [], doc, 't3', [boPlan]).record.otherPlans).toEqual([boPlan]);
  });
});
