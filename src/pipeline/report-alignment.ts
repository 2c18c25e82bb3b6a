/**
 * What two reports have in common before they are compared: the entries compared (each model of
 * each report), the questions they share, and the settings in which they differ.
 *
 * Entries: a report may hold several models; each (report, model) is one entry, named by the
 * model's display name, with the report's label (its file name) added when two entries would
 * otherwise share a name, and a number when even that is not enough.
 *
 * Alignment: a question is identified by its id and its text with whitespace runs collapsed and
 * the ends trimmed (two datasets can reuse an id for another question, and the same question can be
 * laid out differently). Within one report a repeated key keeps its first question (the project's
 * rule for duplicate ids); the later ones are not compared and are counted as duplicates.
 */
import type { ModelReport, ReportDocument, ReportQuestion } from '../model/report';

export interface CompareEntry {
  /** Unique among the entries compared. */
  name: string;
  /** The report's label (e.g. its file name). */
  source: string;
  document: ReportDocument;
  model: ModelReport;
}

/** A question named for a person: its id and text. */
export interface QuestionRef {
  id: string;
  question: string;
}

export interface Alignment {
  /** Row index in A and in B of each shared question, in A's order. */
  shared: { a: number; b: number }[];
  onlyA: QuestionRef[];
  onlyB: QuestionRef[];
  /** Later questions whose key repeats an earlier one in the same report (not compared). */
  duplicatesA: number;
  duplicatesB: number;
}

export interface SettingDifference {
  /** Which setting: samples (n), clustering, grading, bins, B, sem2, dataset. */
  setting: string;
  a: string;
  b: string;
}

/** The entries of the reports given, one per model, with unique names. */
export function compareEntries(reports: readonly { source: string; document: ReportDocument }[]): CompareEntry[] {
  const raw = reports.flatMap((r) => r.document.models.map((model) => ({ source: r.source, document: r.document, model })));
  const count = (names: string[]) => names.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map<string, number>());
  const byModel = count(raw.map((e) => e.model.model));
  const named = raw.map((e) => (byModel.get(e.model.model)! > 1 ? `${e.model.model} (${e.source})` : e.model.model));
  const byNamed = count(named);
  const seen = new Map<string, number>();
  return raw.map((e, i) => {
    let name = named[i];
    if (byNamed.get(name)! > 1) {
      const k = (seen.get(name) ?? 0) + 1;
      seen.set(name, k);
      name = `${name} #${k}`;
    }
    return { ...e, name };
  });
}

/** The key a question is matched by: id and whitespace-normalised text. */
export function questionKey(q: Pick<ReportQuestion, 'id' | 'question'>): string {
  return JSON.stringify([q.id, q.question.replace(/\s+/g, ' ').trim()]);
}

function firstByKey(questions: readonly ReportQuestion[]): { index: Map<string, number>; duplicates: number } {
  const index = new Map<string, number>();
  let duplicates = 0;
  questions.forEach((q, i) => {
    const k = questionKey(q);
    if (index.has(k)) duplicates++;
    else index.set(k, i);
  });
  return { index, duplicates };
}

export function alignQuestions(a: readonly ReportQuestion[], b: readonly ReportQuestion[]): Alignment {
  const A = firstByKey(a);
  const B = firstByKey(b);
  const shared: Alignment['shared'] = [];
  const onlyA: QuestionRef[] = [];
  for (const [k, i] of A.index) {
    const j = B.index.get(k);
    if (j === undefined) onlyA.push({ id: a[i].id, question: a[i].question });
    else shared.push({ a: i, b: j });
  }
  const onlyB: QuestionRef[] = [];
  for (const [k, j] of B.index) if (!A.index.has(k)) onlyB.push({ id: b[j].id, question: b[j].question });
  return { shared, onlyA, onlyB, duplicatesA: A.duplicates, duplicatesB: B.duplicates };
}

/** The settings that shape the numbers, as text a person reads. */
function settingsOf(e: CompareEntry): Record<string, string> {
  const s = e.document.settings;
  const detail = (m: { method: string; detail?: string }) => (m.detail ? `${m.method} (${m.detail})` : m.method);
  return {
    samples: String(s.samples),
    clustering: detail(s.clustering),
    grading: detail(s.grading),
    bins: String(s.bins),
    B: String(s.bootstrap.B),
    sem2: `R=${s.sem2.R}, seed=${s.sem2.seed}, selection=${s.sem2.selection}`,
    dataset: e.document.dataset.name,
  };
}

/** Every setting in which the two entries' reports differ, in a fixed order. */
export function settingsDiffer(a: CompareEntry, b: CompareEntry): SettingDifference[] {
  const sa = settingsOf(a);
  const sb = settingsOf(b);
  return Object.keys(sa)
    .filter((k) => sa[k] !== sb[k])
    .map((setting) => ({ setting, a: sa[setting], b: sb[setting] }));
}

/** The warning a comparison across clusterers carries (null when both used the same method). */
export function clustererWarning(a: CompareEntry, b: CompareEntry): string | null {
  const ma = a.document.settings.clustering.method;
  const mb = b.document.settings.clustering.method;
  return ma === mb
    ? null
    : `${a.name} was clustered by ${ma} and ${b.name} by ${mb}: Sem1 and Sem2 depend on the clusterer, so their differences mix the models with the clusterers.`;
}
