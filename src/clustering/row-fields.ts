/**
 * Semantic classes → the clustering fields of the authors' clustered rows, so a clustering made
 * here reads exactly like one made by their pipeline.
 */
import { adaptiveModalClass } from '../core/adaptive-sem2';
import type { ClusteredRow, SemanticClass } from '../model/rows';

export type ClusterRowFields = Pick<
  ClusteredRow,
  'n_clusters' | 'cluster_labels' | 'cluster_assignments' | 'cluster_sizes' | 'modal_cluster' | 'modal_cluster_label'
>;

/**
 * `n` is the number of samples. The classes must already be a partition of 0..n-1 (the
 * clusterers guarantee it); a violation here is a programming error and throws.
 *
 * The modal class is the deployed answer, the one graded. For a row sampled adaptively
 * (`selection`, its selection block's size) it is the selection block's most common class, not
 * the largest over all samples: adaptive Sem2 is that class's share of the held-out samples, and
 * grading another class biases its ECE (measured in docs/STATISTICS.md, "Adaptive sampling").
 */
export function classesToRowFields(classes: SemanticClass[], n: number, selection?: number): ClusterRowFields {
  const assignments = new Array<number>(n).fill(-1);
  classes.forEach((cls, k) => {
    for (const i of cls.members) {
      if (!Number.isInteger(i) || i < 0 || i >= n || assignments[i] !== -1) {
        throw new Error(`classesToRowFields: member ${i} of class ${k} is out of range or listed twice (n=${n})`);
      }
      assignments[i] = k;
    }
  });
  const missing = assignments.indexOf(-1);
  if (missing !== -1) throw new Error(`classesToRowFields: sample ${missing} is in no class`);
  const sizes = classes.map((c) => c.members.length);
  // The first largest class is the modal one (lowest listed index wins ties), as the spec says.
  let modal = 0;
  for (let k = 1; k < sizes.length; k++) if (sizes[k] > sizes[modal]) modal = k;
  if (selection !== undefined) modal = adaptiveModalClass(assignments, selection);
  return {
    n_clusters: classes.length,
    cluster_labels: classes.map((c) => c.label),
    cluster_assignments: assignments,
    cluster_sizes: sizes,
    modal_cluster: modal,
    modal_cluster_label: classes[modal]?.label ?? '',
  };
}

/** The inverse: a clustered row's fields back to classes (for agreement, regrading …). */
export function rowFieldsToClasses(row: Pick<ClusteredRow, 'cluster_labels' | 'cluster_assignments'>): SemanticClass[] {
  const classes: SemanticClass[] = row.cluster_labels.map((label) => ({ label, members: [] }));
  row.cluster_assignments.forEach((k, i) => classes[k]?.members.push(i));
  return classes;
}
