import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  parseClusteredJsonl,
  parseGradedJsonl,
  readAuthorsRows,
} from '../../../src/formats/authors-rows';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/reference-sample/${name}`, import.meta.url), 'utf8');

/** A valid clustered row; override fields to break it. */
function clusteredRow(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'q1',
    question: 'Capital of France?',
    gold_answer: 'Paris',
    model: 'm',
    n_samples: 4,
    results: ['Answer: Paris\nConfidence: 90%', 'Answer: paris', 'Answer: Lyon\nConfidence: 20%', 'Answer: Paris'],
    answer_extracted: ['Paris', 'paris', 'Lyon', 'Paris'],
    confidence_verbalized: [0.9, null, 0.2, 0.8],
    n_clusters: 2,
    cluster_labels: ['Paris', 'Lyon'],
    cluster_assignments: [0, 0, 1, 0],
    cluster_sizes: [3, 1],
    modal_cluster: 0,
    modal_cluster_label: 'Paris',
    ...over,
  };
}
const gradedRow = (over: Record<string, unknown> = {}) => ({
  id: 'q1', model: 'm', question: 'Capital of France?', gold_answer: 'Paris',
  modal_cluster_label: 'Paris', grade: 'CORRECT', Y: 1, ...over,
});
const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function clusteredError(text: string): string {
  const r = parseClusteredJsonl(text, 'c.jsonl');
  if (r.ok) throw new Error('expected a failure');
  return r.error.message;
}

describe('reading the reference sample', () => {
  const r = readAuthorsRows(
    { text: fixture('clustered.jsonl'), file: 'clustered.jsonl' },
    { text: fixture('graded.jsonl'), file: 'graded.jsonl' },
  );
  if (!r.ok) throw new Error(r.error.message);
  const rows = r.value;
  const expected = JSON.parse(fixture('expected.json'));

  it('keeps the questions of expected.json, in order', () => {
    expect(rows.questions.map((q) => q.clustered.id)).toEqual(expected.questions.map((q: { id: string }) => q.id));
  });

  it('excludes the failed grade and the missing grade with reasons', () => {
    expect(rows.excluded).toEqual([
      { id: 'q11_00005', reason: 'grading failed (grade: PARSE_ERROR, Y null)' },
      { id: 'q11_00028', reason: 'no graded row in graded.jsonl' },
    ]);
  });

  it('reports duplicate graded ids, first row wins', () => {
    expect(rows.duplicates).toEqual([
      { file: 'graded.jsonl', id: 'q11_00054', line: 55, firstLine: 54 },
      { file: 'graded.jsonl', id: 'q11_00062', line: 64, firstLine: 63 },
    ]);
    const q54 = rows.questions.find((q) => q.clustered.id === 'q11_00054')!;
    expect(q54.graded.Y).toBe(0);
    const q62 = rows.questions.find((q) => q.clustered.id === 'q11_00062')!;
    expect(q62.graded.Y).toBe(1);
  });

  it('keeps empty listed classes', () => {
    const q = rows.questions.find((x) => x.clustered.id === 'q11_00018')!;
    expect(q.clustered.cluster_sizes).toEqual([3, 0, 4, 21, 15, 6, 1]);
  });
});

describe('joining', () => {
  it('first clustered row per id wins and the duplicate is reported', () => {
    const r = readAuthorsRows(
      { text: jsonl(clusteredRow(), clusteredRow({ question: 'second' })), file: 'c.jsonl' },
      { text: jsonl(gradedRow()), file: 'g.jsonl' },
    );
    expect(r.ok && r.value.questions[0].clustered.question).toBe('Capital of France?');
    expect(r.ok && r.value.duplicates).toEqual([{ file: 'c.jsonl', id: 'q1', line: 2, firstLine: 1 }]);
  });

  it('excludes failed clustering with its reason and reports unmatched graded rows', () => {
    const r = readAuthorsRows(
      {
        text: jsonl(
          clusteredRow(),
          clusteredRow({ id: 'q2', cluster_assignments: null, n_clusters: 0, cluster_sizes: null }),
          clusteredRow({ id: 'q3', cluster_error: 'judge returned no partition' }),
        ),
        file: 'c.jsonl',
      },
      { text: jsonl(gradedRow(), gradedRow({ id: 'q2' }), gradedRow({ id: 'q3' }), gradedRow({ id: 'q9' })), file: 'g.jsonl' },
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.questions).toHaveLength(1);
    expect(r.value.excluded).toEqual([
      { id: 'q2', reason: 'clustering failed (cluster_assignments is null)' },
      { id: 'q3', reason: 'clustering failed (cluster_error: judge returned no partition)' },
    ]);
    expect(r.value.unmatchedGraded).toEqual(['q9']);
  });

  it('dropReplies checks the raw replies but does not keep them', () => {
    const files = [{ text: jsonl(clusteredRow()), file: 'c.jsonl' }, { text: jsonl(gradedRow()), file: 'g.jsonl' }] as const;
    const kept = readAuthorsRows(files[0], files[1]);
    const dropped = readAuthorsRows(files[0], files[1], { dropReplies: true });
    expect(kept.ok && kept.value.questions[0].clustered.results).toHaveLength(4);
    expect(dropped.ok && dropped.value.questions[0].clustered.results).toEqual([]);
    expect(dropped.ok && dropped.value.questions[0].clustered.answer_extracted).toHaveLength(4);
    const bad = parseClusteredJsonl(jsonl(clusteredRow({ results: [1, 2, 3, 4] })), 'c.jsonl', { dropReplies: true });
    expect(!bad.ok && bad.error.message).toMatch(/"results"\[0\] must be a string or null/);
  });

  it('dropAnswers checks the extracted answers but does not keep them; the rest of the row is the same', () => {
    const files = [{ text: jsonl(clusteredRow()), file: 'c.jsonl' }, { text: jsonl(gradedRow()), file: 'g.jsonl' }] as const;
    const kept = readAuthorsRows(files[0], files[1]);
    const dropped = readAuthorsRows(files[0], files[1], { dropReplies: true, dropAnswers: true });
    if (!kept.ok || !dropped.ok) throw new Error('expected both to read');
    expect(dropped.value.questions[0].clustered).toEqual({ ...kept.value.questions[0].clustered, results: [], answer_extracted: [] });
    const bad = parseClusteredJsonl(jsonl(clusteredRow({ answer_extracted: ['a', 2, 'b', 'c'] })), 'c.jsonl', { dropAnswers: true });
    expect(!bad.ok && bad.error.message).toMatch(/"answer_extracted"\[1\] must be a string or null/);
  });

  it('accepts integer ids, blank lines, CRLF and a byte-order mark', () => {
    const text = '\uFEFF' + JSON.stringify(clusteredRow({ id: 7 })) + '\r\n\r\n';
    const r = readAuthorsRows({ text, file: 'c.jsonl' }, { text: jsonl(gradedRow({ id: '7' })), file: 'g.jsonl' });
    expect(r.ok && r.value.questions[0].clustered.id).toBe('7');
  });
});

describe('malformed clustered rows: file, line and what is wrong', () => {
  it('bad JSON', () => {
    expect(clusteredError(jsonl(clusteredRow()) + '{"id": "q2",\n')).toMatch(/^c\.jsonl, line 2: bad JSON/);
  });

  it('not an object', () => {
    expect(clusteredError('[1, 2]\n')).toBe('c.jsonl, line 1: expected a JSON object, got an array');
  });

  it('missing field', () => {
    const row = clusteredRow();
    delete row.question;
    expect(clusteredError(jsonl(row))).toBe('c.jsonl, line 1: missing field "question"');
  });

  it('wrong type', () => {
    expect(clusteredError(jsonl(clusteredRow({ n_samples: '4' })))).toBe(
      'c.jsonl, line 1: "n_samples" must be an integer, got the string "4"',
    );
    expect(clusteredError(jsonl(clusteredRow({ gold_answer: 3 })))).toBe(
      'c.jsonl, line 1: "gold_answer" must be a string, got number 3',
    );
  });

  it('assignment out of range', () => {
    expect(clusteredError(jsonl(clusteredRow(), clusteredRow({ id: 'q2', cluster_assignments: [0, 0, 2, 0] })))).toBe(
      'c.jsonl, line 2: "cluster_assignments"[2] = 2 is outside 0..1 (n_clusters = 2)',
    );
    expect(clusteredError(jsonl(clusteredRow({ cluster_assignments: [0, 0.5, 1, 0] })))).toMatch(
      /"cluster_assignments"\[1\] must be an integer/,
    );
  });

  it('sizes that disagree with the assignments', () => {
    expect(clusteredError(jsonl(clusteredRow({ cluster_sizes: [2, 2] })))).toBe(
      'c.jsonl, line 1: "cluster_sizes" [2,2] disagrees with "cluster_assignments" (counts [3,1])',
    );
    expect(clusteredError(jsonl(clusteredRow({ cluster_sizes: [4] })))).toMatch(/"cluster_sizes" has 1 entries but n_clusters = 2/);
  });

  it('no samples', () => {
    expect(clusteredError(jsonl(clusteredRow({ n_samples: 0 })))).toBe('c.jsonl, line 1: no samples (n_samples = 0)');
  });

  it('n_samples disagreeing with the arrays', () => {
    expect(clusteredError(jsonl(clusteredRow({ n_samples: 5 })))).toMatch(/"cluster_assignments" has 4 entries but n_samples = 5/);
    expect(clusteredError(jsonl(clusteredRow({ results: ['a', 'b', 'c'] })))).toMatch(/"results" has 3 entries but n_samples = 4/);
    expect(clusteredError(jsonl(clusteredRow({ confidence_verbalized: [0.5] })))).toMatch(
      /"confidence_verbalized" has 1 entries but n_samples = 4/,
    );
  });

  it('confidence out of range or not a number', () => {
    expect(clusteredError(jsonl(clusteredRow({ confidence_verbalized: [90, null, 0.2, 0.8] })))).toMatch(
      /"confidence_verbalized"\[0\] = 90 is outside \[0, 1\]/,
    );
    expect(clusteredError(jsonl(clusteredRow({ confidence_verbalized: ['x', null, 0.2, 0.8] })))).toMatch(
      /"confidence_verbalized"\[0\] must be a number in \[0, 1\] or null/,
    );
  });

  it('modal_cluster that is not the first largest class', () => {
    expect(clusteredError(jsonl(clusteredRow({ modal_cluster: 1 })))).toMatch(/"modal_cluster" = 1 but the first largest class is 0/);
  });

  it('an empty file', () => {
    expect(clusteredError('\n\n')).toBe('c.jsonl: no rows');
  });
});

describe('malformed graded rows', () => {
  const gradedError = (text: string) => {
    const r = parseGradedJsonl(text, 'g.jsonl');
    if (r.ok) throw new Error('expected a failure');
    return r.error;
  };

  it('Y must be 0, 1 or null and present', () => {
    expect(gradedError(jsonl(gradedRow({ Y: 'yes' }))).message).toBe('g.jsonl, line 1: "Y" must be 0, 1 or null, got the string "yes"');
    const row: Record<string, unknown> = gradedRow();
    delete row.Y;
    expect(gradedError(jsonl(gradedRow(), row)).message).toBe('g.jsonl, line 2: missing field "Y"');
  });

  it('names the place in `where` for the UI', () => {
    expect(gradedError(jsonl(gradedRow({ id: null }))).where).toBe('g.jsonl:1');
  });
});
