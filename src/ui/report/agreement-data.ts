/** The agreement table's order (the agreement itself: pipeline/report-agreement.ts). */
import type { ReportAgreement } from '../../pipeline/report-agreement';

export type AgreementSortKey = 'id' | 'n' | 'randIndex' | 'adjustedRandIndex' | 'sameModalClass' | 'modalJaccard';

/** A column of the agreement table and which way it is sorted (default ascending). */
export interface AgreementSort {
  key: AgreementSortKey;
  descending?: boolean;
}

/** Rows sorted by one column (ties keep the file order); NaN last either way. */
export function sortAgreement<T extends ReportAgreement['questions'][number]>(rows: readonly T[], { key, descending = false }: AgreementSort): T[] {
  const dir = descending ? -1 : 1;
  const value = (r: T): number | string => (key === 'id' ? r.id : key === 'sameModalClass' ? Number(r.sameModalClass) : r[key]);
  return rows
    .map((r, i) => ({ r, i, v: value(r) }))
    .sort((a, b) => {
      if (typeof a.v === 'number' && typeof b.v === 'number') {
        const an = Number.isNaN(a.v);
        const bn = Number.isNaN(b.v);
        if (an || bn) return an && bn ? a.i - b.i : an ? 1 : -1;
      }
      return a.v < b.v ? -dir : a.v > b.v ? dir : a.i - b.i;
    })
    .map((x) => x.r);
}
