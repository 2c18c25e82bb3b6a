/**
 * How a clustered or graded row was made, recorded in the row itself so a report scored from the
 * files later can say so. `semece cluster` writes `clustering_method` (a method of
 * model/clustering-methods.ts) and `clustering_detail` (the judge, the embedding or NLI model); `semece
 * grade` writes `grading_method` (judge or alias) and `grading_detail`. The authors' readers
 * ignore fields they do not know, so the rows stay in their format; rows without these fields
 * (the authors' own pipeline) are reported as 'imported'.
 */
import type { ReportSettings } from '../model/report';
import { FieldError, describe, type Obj } from './authors-fields';
import { CLUSTERING_METHOD_NAMES } from '../model/clustering-methods';

export type ClusteringMethod = ReportSettings['clustering'];
export type GradingMethod = ReportSettings['grading'];

const CLUSTERING = CLUSTERING_METHOD_NAMES;
const GRADING = ['judge', 'alias'] as const;

export const ROW_METHOD_FIELDS = {
  clustering: { method: 'clustering_method', detail: 'clustering_detail', allowed: CLUSTERING },
  grading: { method: 'grading_method', detail: 'grading_detail', allowed: GRADING },
} as const;

/** The row's recorded method, undefined when it has none; a method outside the known ones is bad input. */
export function readRowMethod(obj: Obj, stage: 'clustering'): ClusteringMethod | undefined;
export function readRowMethod(obj: Obj, stage: 'grading'): GradingMethod | undefined;
export function readRowMethod(obj: Obj, stage: 'clustering' | 'grading'): ClusteringMethod | GradingMethod | undefined {
  const f = ROW_METHOD_FIELDS[stage];
  const method = obj[f.method];
  if (method === undefined || method === null) return undefined;
  if (typeof method !== 'string' || !(f.allowed as readonly string[]).includes(method)) {
    throw new FieldError(`"${f.method}" must be one of ${f.allowed.join(', ')}, got ${describe(method)}`);
  }
  const detail = obj[f.detail];
  if (detail !== undefined && detail !== null && typeof detail !== 'string') throw new FieldError(`"${f.detail}" must be a string, got ${describe(detail)}`);
  return { method, ...(typeof detail === 'string' && detail ? { detail } : {}) } as ClusteringMethod | GradingMethod;
}

/** The rows' fields for a method, as the CLI writes them. */
export function rowMethodFields(stage: 'clustering' | 'grading', m: { method: string; detail?: string }): Record<string, string> {
  const f = ROW_METHOD_FIELDS[stage];
  return { [f.method]: m.method, ...(m.detail ? { [f.detail]: m.detail } : {}) };
}

/**
 * The method all rows share; 'imported' when any row has none (the authors' rows, or files
 * joined from two pipelines) or rows disagree, since one label would then misdescribe some.
 */
export function commonMethod<M extends { method: string; detail?: string }>(methods: Iterable<M | undefined>): M | { method: 'imported'; detail?: string } {
  let first: M | undefined;
  let any = false;
  for (const m of methods) {
    any = true;
    if (!m) return { method: 'imported' };
    if (!first) first = m;
    else if (m.method !== first.method || m.detail !== first.detail) return { method: 'imported', detail: 'rows made by different methods' };
  }
  return any && first ? first : { method: 'imported' };
}
