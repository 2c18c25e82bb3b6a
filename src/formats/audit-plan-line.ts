/**
 * The audit file's plan line (issue 30): how the audited questions were chosen, so the file says
 * what its estimates assume (a seeded random draw of the report's questions) and a second browser
 * can go on with the same list:
 *   {"plan": {"by": "ana", "model": "m", "draw": "plain" | "stratified" | "all", "seed": 0,
 *             "strata": "regime" | a question field (stratified only), "half_width": 0.1, "ids": ["q1", …]}}
 * `model` only where the report has several models (as on a question's line), `half_width` the
 * 95 % interval half-width the plan was sized for when one was stated. A file made by merging
 * several people's files keeps every distinct plan, each under its person (mergePlans).
 */
import { describe } from './authors-fields';

export type AuditDraw = 'plain' | 'stratified' | 'all';
export const AUDIT_DRAWS: readonly AuditDraw[] = Object.freeze(['plain', 'stratified', 'all']);

export interface AuditPlanLine {
  /** Whose plan (the `by` of their lines). */
  by: string;
  /** The model whose questions were drawn, where a report has several. */
  model?: string;
  /** A plain seeded draw, one in proportion to strata, or every question. */
  draw: AuditDraw;
  seed: number;
  /** 'regime' or a question field's name: what a stratified draw was stratified by. */
  strata?: string;
  /** The 95 % interval half-width the number of questions was chosen for, when one was stated. */
  halfWidth?: number;
  /** The drawn questions' ids, in the order they are audited. */
  ids: string[];
}

/** More ids than an audit file may have lines is not a plan. */
const MAX_PLAN_IDS = 200_000;

export class PlanProblem extends Error {
  constructor(readonly field: string, problem: string) {
    super(problem);
  }
}

function text(obj: Record<string, unknown>, key: string): string {
  const v = obj[key];
  if (v === undefined) throw new PlanProblem(`plan.${key}`, 'missing');
  if (typeof v !== 'string' || v.length === 0) throw new PlanProblem(`plan.${key}`, `must be a non-empty string, got ${describe(v)}`);
  return v;
}

/** The plan in a line's `plan` member; a PlanProblem names the field at fault. */
export function readPlanLine(value: unknown): AuditPlanLine {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PlanProblem('plan', `must be an object, got ${describe(value)}`);
  const obj = value as Record<string, unknown>;
  const by = text(obj, 'by');
  const draw = obj.draw;
  if (typeof draw !== 'string' || !(AUDIT_DRAWS as readonly string[]).includes(draw)) throw new PlanProblem('plan.draw', `unknown draw ${describe(draw)}; expected one of ${AUDIT_DRAWS.join(', ')}`);
  const seed = obj.seed;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) throw new PlanProblem('plan.seed', `must be a whole number ≥ 0, got ${describe(seed)}`);
  const ids = obj.ids;
  if (!Array.isArray(ids) || ids.length === 0) throw new PlanProblem('plan.ids', `must be a non-empty list of question ids, got ${describe(ids)}`);
  if (ids.length > MAX_PLAN_IDS) throw new PlanProblem('plan.ids', `has ${ids.length} ids; a plan has at most ${MAX_PLAN_IDS}`);
  const seen = new Set<string>();
  const idList = ids.map((id, i) => {
    // Ids may be integers in a dataset, as on a question's line; compared as strings.
    const s = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
    if (typeof s !== 'string' || s.length === 0) throw new PlanProblem(`plan.ids[${i}]`, `must be a non-empty string or an integer, got ${describe(id)}`);
    if (seen.has(s)) throw new PlanProblem(`plan.ids[${i}]`, `id ${JSON.stringify(s)} is drawn twice`);
    seen.add(s);
    return s;
  });
  const plan: AuditPlanLine = { by, draw: draw as AuditDraw, seed, ids: idList };
  if (obj.model !== undefined) plan.model = text(obj, 'model');
  if (draw === 'stratified') plan.strata = text(obj, 'strata');
  else if (obj.strata !== undefined) throw new PlanProblem('plan.strata', `only a stratified draw has strata (this draw is ${draw})`);
  if (obj.half_width !== undefined) {
    const h = obj.half_width;
    if (typeof h !== 'number' || !(h > 0 && h < 1)) throw new PlanProblem('plan.half_width', `must be a number between 0 and 1, got ${describe(h)}`);
    plan.halfWidth = h;
  }
  return plan;
}

/** The plan as the file writes it: keys in the documented order, `half_width` as in the file. */
export function planLineObject(p: AuditPlanLine): Record<string, unknown> {
  const obj: Record<string, unknown> = { by: p.by };
  if (p.model !== undefined) obj.model = p.model;
  obj.draw = p.draw;
  obj.seed = p.seed;
  if (p.strata !== undefined) obj.strata = p.strata;
  if (p.halfWidth !== undefined) obj.half_width = p.halfWidth;
  obj.ids = p.ids;
  return obj;
}

/** What makes two plans the same draw: model, draw, seed, strata and the ids (not who, nor the half-width aimed at). */
export function drawKey(p: AuditPlanLine): string {
  return JSON.stringify([p.model ?? null, p.draw, p.draw === 'all' ? null : p.seed, p.strata ?? null, p.ids]);
}

/** A plan in words: "ana: 20 questions, seed 3, in proportion to each regime, sized for ±0.1". */
export function planWords(p: AuditPlanLine): string {
  const n = `${p.ids.length} ${p.ids.length === 1 ? 'question' : 'questions'}`;
  const how =
    p.draw === 'all' ? `all ${n}` : p.draw === 'plain' ? `${n} drawn with seed ${p.seed}` : `${n} drawn with seed ${p.seed} in proportion to each ${p.strata === 'regime' ? 'margin regime' : `value of ${p.strata}`}`;
  return `${p.by}: ${how}${p.model === undefined ? '' : ` of ${p.model}`}${p.halfWidth === undefined ? '' : `, sized for ±${p.halfWidth}`}`;
}

export interface MergedPlans {
  /** Every distinct plan (a person's same plan twice is kept once), in order of first appearance. */
  plans: AuditPlanLine[];
  /**
   * Null when every plan of a model is the same draw; otherwise the mismatch in words. The lines
   * are merged all the same (each person's work is kept), but questions from different draws are
   * not one random draw, so the reader is told rather than left to assume it.
   */
  mismatch: string | null;
}

/** Several files' plans as one file's (see MergedPlans). */
export function mergePlans(files: readonly (readonly AuditPlanLine[])[]): MergedPlans {
  const seen = new Set<string>();
  const plans: AuditPlanLine[] = [];
  for (const file of files) {
    for (const p of file) {
      const key = JSON.stringify([p.by, drawKey(p), p.halfWidth ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      plans.push(p);
    }
  }
  const byModel = new Map<string, AuditPlanLine[]>();
  for (const p of plans) {
    const m = p.model ?? '';
    if (!byModel.has(m)) byModel.set(m, []);
    byModel.get(m)!.push(p);
  }
  const mismatched = [...byModel.values()].filter((ps) => new Set(ps.map(drawKey)).size > 1);
  const mismatch = mismatched.length === 0 ? null : `the audits were drawn by different plans (${mismatched.flat().map(planWords).join('; ')})`;
  return { plans, mismatch };
}
