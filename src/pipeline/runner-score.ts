/**
 * The score and report stages of a run: the run's clustered and graded rows are joined the same
 * way the authors' files are (formats/authors-rows.ts), scored by the core engineers' score stage,
 * and assembled into one report document. Questions whose clustering or grading failed are
 * excluded and counted with their reason; overridden grades are flagged.
 */
import type { AuthorsRows, JoinedQuestion } from '../formats/authors-rows';
import type { ReportDocument } from '../model/report';
import { scoreAuthorsRows, type ScoreOptions } from './score';
import { buildReport } from './score-output';
import { withEntropyConfidence } from '../baselines/report-signals';
import type { ScoreInput, ScoreModelInput } from './stage-ports';

function authorsRows(m: ScoreModelInput): AuthorsRows {
  const graded = new Map(m.graded.map((g) => [g.id, g]));
  const questions: JoinedQuestion[] = [];
  const excluded = [...m.excluded];
  m.clustered.forEach((clustered, i) => {
    const g = graded.get(clustered.id);
    if (!g || g.Y === null) {
      excluded.push({ id: clustered.id, reason: 'grading failed' });
      return;
    }
    questions.push({ clustered, graded: { ...g, Y: g.Y }, clusteredLine: i + 1, gradedLine: i + 1 });
  });
  return { questions, excluded, duplicates: [], unmatchedGraded: [] };
}

export function scoreRun(input: ScoreInput, options: ScoreOptions = { samples: 'raw' }, now: () => Date = () => new Date()): ReportDocument {
  const models = input.models.map((m) => {
    // A large run's rows carry no raw replies (runner-sampling.ts, RAW_REPLIES_LIMIT): its report keeps answers only, not empty raws.
    const rawLess = m.clustered.some((r) => r.results.length === 0 && r.n_samples > 0);
    const detail = options.samples === 'raw' && rawLess ? { ...options, samples: 'answers' as const } : options;
    const report = withEntropyConfidence(scoreAuthorsRows(authorsRows(m), detail, m.model), detail);
    const overridden = new Set(m.overridden);
    for (const q of report.questions) if (overridden.has(q.id)) q.overridden = true;
    return { ...report, provider: m.provider };
  });
  return buildReport(models, { title: input.title, dataset: input.dataset, settings: input.settings, createdAt: now().toISOString() });
}
