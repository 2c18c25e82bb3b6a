/**
 * A report with many question rows (the fixture's rows, their values kept in range), for the
 * tests of opening large links and files: two models of `questions` rows each, no samples, and
 * no stored signal comparison (as a report saved before it was stored), so the page computes one.
 */
import type { ReportDocument } from '../../../src/model/report';
import { question, sampleReport } from './report-fixture';

export function largeReport(questions: number): ReportDocument {
  const doc = sampleReport({ questions: 0, samples: false });
  doc.title = `Large report, ${questions.toLocaleString('en')} questions per model`;
  doc.dataset = { ...doc.dataset, questions: questions + 1 };
  for (const m of doc.models) {
    m.metrics = { ...m.metrics, questions, bootstrap: { ...m.metrics.bootstrap, n_lo: 3 }, byRegime: { ...m.metrics.byRegime, jensen: { ...m.metrics.byRegime.jensen, count: questions } } };
    // Short texts and no extra signal: a link's inflated JSON may be at most 16 MB.
    m.questions = Array.from({ length: questions }, (_, i) => {
      const { signals: _s, ...row } = question(i, false);
      return { ...row, question: `Q${i}`, verbalized: ((i * 7919) % 1000) / 1000 };
    });
  }
  return doc;
}
