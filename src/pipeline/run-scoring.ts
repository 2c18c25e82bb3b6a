/**
 * The score and report stages of a run: the run's clustered and graded rows are joined the same
 * way the authors' files are (formats/authors-rows.ts), scored by the score stage (every signal,
 * entropy confidence included, in one pass), and assembled into one report document. Questions
 * whose clustering or grading failed are excluded and counted with their reason; overridden
 * grades are flagged.
 *
 * Scoring settings: the run's (input.settings, from its spec); options may override them (tests
 * use a small B). The document records the settings the scorer actually used.
 */
import type { AuthorsRows, JoinedQuestion } from '../formats/authors-rows';
import type { ReportDocument } from '../model/report';
import { firstRowPerId } from '../model/rows';
import type { QuestionFields } from '../model/question-fields';
import { scoreAuthorsRows, scoreOptionsFor, scoringUsed, type SampleDetail, type ScoreOptions } from './score-stage';
import { buildReport } from './score-documents';
import { reportDetail } from './report-detail';
import type { ScoreInput, ScoreModelInput } from './stage-ports';

function authorsRows(m: ScoreModelInput, fields: Readonly<Record<string, QuestionFields>> = {}): AuthorsRows {
  const graded = new Map(firstRowPerId(m.graded).map((g) => [g.id, g]));
  const questions: JoinedQuestion[] = [];
  const excluded = [...m.excluded];
  const listed = new Set(excluded.map((x) => x.id));
  m.clustered.forEach((clustered, i) => {
    const g = graded.get(clustered.id);
    if (!g || g.Y === null) {
      // Listed once, with the grader's own reason when the grade stage gave one.
      if (!listed.has(clustered.id)) excluded.push({ id: clustered.id, reason: 'grading failed' });
      return;
    }
    const kept = Object.hasOwn(fields, clustered.id) ? fields[clustered.id] : undefined;
    questions.push({ clustered, graded: { ...g, Y: g.Y }, clusteredLine: i + 1, gradedLine: i + 1, ...(kept ? { fields: kept } : {}) });
  });
  return { questions, excluded, duplicates: [], unmatchedGraded: [] };
}

const DETAIL: SampleDetail[] = ['none', 'answers', 'raw'];
const leastDetail = (...levels: SampleDetail[]): SampleDetail => DETAIL[Math.min(...levels.map((l) => DETAIL.indexOf(l)))];

export function scoreRun(input: ScoreInput, options: ScoreOptions = { samples: 'raw' }, now: () => Date = () => new Date()): ReportDocument {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const scoring: ScoreOptions = { ...scoreOptionsFor(input.settings), ...defined };
  const models = input.models.map((m) => {
    // A large run keeps less of each sample (report-detail.ts): its rows carry no raw replies
    // (the sample stage counted the whole run, a partial report may score fewer), so its report
    // keeps answers only, not empty raws; a larger one keeps classes only.
    const samples = m.clustered.reduce((sum, r) => sum + r.n_samples, 0);
    const rawLess = m.clustered.some((r) => r.results.length === 0 && r.n_samples > 0);
    const detail = { ...scoring, samples: leastDetail(scoring.samples ?? 'answers', reportDetail(samples).detail, rawLess ? 'answers' : 'raw') };
    const report = scoreAuthorsRows(authorsRows(m, input.fields), detail, m.model);
    const overridden = new Set(m.overridden);
    for (const q of report.questions) if (overridden.has(q.id)) q.overridden = true;
    return { ...report, provider: m.provider };
  });
  const settings = { ...input.settings, ...scoringUsed(scoring) };
  return buildReport(models, { title: input.title, dataset: input.dataset, settings, createdAt: now().toISOString() });
}
