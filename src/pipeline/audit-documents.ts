/**
 * The audit summary as `semece score --audit` prints it under `audit`, in the CLI document's
 * manner (snake_case; an estimate beside its `_interval` [low, high], as metrics.ece_interval;
 * NaN written as null by the JSON writer):
 *   questions, people, agreement(+_interval), kappa(+_interval), grades_changed,
 *   confusion {categories, counts[automatic][person]}, ari(+_interval), pairwise {precision,
 *   recall (+_interval), pairs {tp, fp, fn, tn}}, classes_changed,
 *   ece_shift {signal: {ece, corrected, estimate, interval, bias_corrected}}, by_regime {regime: the same
 *   minus people}, slices {value: the same} (with --by: keyed as the document's own `slices`, so
 *   audit.slices[v] sits beside slices[v]), alpha (two or more people), skipped, methods.
 */
import type { Interval } from '../core/types';
import type { AuditPart, AuditSummary } from './audit-summary';

const pair = (i: Interval): [number, number] => [i[1], i[2]];

function partDocument(p: AuditPart) {
  return {
    questions: p.questions,
    agreement: p.grades.agreement[0],
    agreement_interval: pair(p.grades.agreement),
    kappa: p.grades.kappa[0],
    kappa_interval: pair(p.grades.kappa),
    grades_changed: p.grades.changed,
    confusion: { categories: [...p.grades.categories], counts: p.grades.confusion },
    ari: p.classes.ari[0],
    ari_interval: pair(p.classes.ari),
    pairwise: {
      precision: p.classes.precision[0],
      precision_interval: pair(p.classes.precision),
      recall: p.classes.recall[0],
      recall_interval: pair(p.classes.recall),
      pairs: p.classes.pairs,
    },
    classes_changed: p.classes.differing,
    ece_shift: Object.fromEntries(Object.entries(p.eceShift).map(([s, e]) => [s, { ece: e.ece, corrected: e.corrected, estimate: e.estimate, interval: e.interval, bias_corrected: e.biasCorrected }])),
  };
}

/** The `audit` member of `semece score`'s document. */
export function auditCliDocument(s: AuditSummary) {
  return {
    ...partDocument(s),
    people: s.people,
    by_regime: Object.fromEntries(Object.entries(s.byRegime).map(([r, p]) => [r, partDocument(p)])),
    ...(s.bySlice ? { slices: Object.fromEntries(Object.entries(s.bySlice.values).map(([v, p]) => [v, partDocument(p)])) } : {}),
    ...(s.betweenPeople
      ? {
          alpha: {
            people: s.betweenPeople.people,
            questions: s.betweenPeople.questions,
            grades: s.betweenPeople.grades[0],
            grades_interval: pair(s.betweenPeople.grades),
            classes: s.betweenPeople.classes[0],
            classes_interval: pair(s.betweenPeople.classes),
          },
        }
      : {}),
    skipped: s.skipped,
    methods: { ...s.methods },
  };
}
