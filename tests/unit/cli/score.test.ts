import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../../src/formats/report-import';
import { toJson } from '../../../cli/json';
import { semece } from './run-cli';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const sample = (name: string) => join(root, 'tests/fixtures/reference-sample', name);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('semece score on the reference sample', () => {
  it('prints one JSON document reproducing expected.json', async () => {
    const r = await semece(['score', '--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl')]);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    const expected = JSON.parse(await readFile(sample('expected.json'), 'utf8'));
    expect(doc.questions.map((q: Record<string, unknown>) => ({
      id: q.id, n: q.n, sem1: q.sem1, sem2: q.sem2, verbalized: q.verbalized, correct: q.correct, margin: q.margin,
    }))).toEqual(expected.questions);
    expect(doc.metrics.questions).toBe(expected.metrics.questions);
    expect(doc.metrics.accuracy).toBe(expected.metrics.accuracy);
    // The paper's three bit for bit; every other scored probability (entropy confidence) beside them.
    expect({ sem1: doc.metrics.ece.sem1, sem2: doc.metrics.ece.sem2, verbalized: doc.metrics.ece.verbalized }).toEqual(expected.metrics.ece);
    expect(Object.keys(doc.metrics.ece)).toEqual(['sem1', 'sem2', 'verbalized', 'entropyConfidence']);
    expect(doc.metrics.bootstrap.n_lo).toBe(expected.metrics.bootstrap.n_lo);
    for (const key of ['d_conf', 'd_ece', 'd_ece_lo']) {
      (doc.metrics.bootstrap[key] as number[]).forEach((v, i) =>
        expect(Math.abs(v - expected.metrics.bootstrap[key][i])).toBeLessThanOrEqual(1e-9),
      );
    }
    expect(doc.metrics.excluded).toBe(2);
    expect(r.stderr).toMatch(/118 questions scored, 2 excluded, 2 duplicate rows ignored/);
  });

  it('writes NaN as null and honours the options', async () => {
    // B = 40 < 50 finite replicates: every bound is undefined and must come out as null.
    const r = await semece([
      'score', '--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'),
      '--B', '40', '--bins', '5', '--R', '2', '--sem2-seed', '3', '--bootstrap-seed', '9',
    ]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/"d_conf":\[-?[0-9.e-]+,null,null\]/);
    const doc = JSON.parse(r.stdout);
    expect(doc.settings).toEqual({ R: 2, sem2_seed: 3, bins: 5, B: 40, bootstrap_seed: 9 });
    expect(doc.metrics.bootstrap.B).toBe(40);
  });

  it('--report writes a report document the app can import', async () => {
    const out = join(dir, 'report.json');
    const r = await semece(['score', '--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'), '--B', '60', '--report', out]);
    expect(r.code).toBe(3);
    const parsed = parseReport(await readFile(out, 'utf8'));
    expect(parsed.ok).toBe(true);
  });
});

describe('semece score with nothing left to score', () => {
  it('every grade failed: exit 2 (nothing to score), nothing on stdout, the count and first reason on stderr', async () => {
    const graded = (await readFile(sample('graded.jsonl'), 'utf8')).replace(/"Y": [01]/g, '"Y": null');
    const file = join(dir, 'all-null.jsonl');
    await writeFile(file, graded);
    const r = await semece(['score', '--clustered', sample('clustered.jsonl'), '--graded', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no question can be scored: 120 excluded \(first: \S+: /);
  });

  it('files with no rows in common: exit 2, the reason names the graded file', async () => {
    const graded = join(dir, 'other-ids.jsonl');
    await writeFile(graded, '{"id": "elsewhere", "grade": "CORRECT", "Y": 1}\n');
    const clustered = (await readFile(sample('clustered.jsonl'), 'utf8')).split('\n')[0];
    const file = join(dir, 'one-row.jsonl');
    await writeFile(file, clustered + '\n');
    const r = await semece(['score', '--clustered', file, '--graded', graded]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`no question can be scored: 1 excluded (first: ${JSON.parse(clustered).id}: no graded row in ${graded})`);
  });

  it('every question scored: exit 0', async () => {
    // Only the clustered rows that have a graded row with a known Y: nothing excluded.
    const graded = (await readFile(sample('graded.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const known = new Set(graded.filter((g) => g.Y === 0 || g.Y === 1).map((g) => g.id));
    const clustered = (await readFile(sample('clustered.jsonl'), 'utf8')).trim().split('\n').filter((l) => known.has(JSON.parse(l).id));
    const file = join(dir, 'all-known.jsonl');
    await writeFile(file, clustered.join('\n') + '\n');
    const r = await semece(['score', '--clustered', file, '--graded', sample('graded.jsonl'), '--B', '60']);
    expect(r.stderr).toMatch(/questions scored, 0 excluded/);
    expect(r.code).toBe(0);
  });
});

describe('semece score errors', () => {
  it('a malformed clustered file: exit 2, the file and line on stderr, no stack trace', async () => {
    const good = (await readFile(sample('clustered.jsonl'), 'utf8')).split('\n');
    const row = JSON.parse(good[2]);
    row.cluster_assignments[4] = 99;
    good[2] = JSON.stringify(row);
    const bad = join(dir, 'bad-clustered.jsonl');
    await writeFile(bad, good.join('\n'));
    const r = await semece(['score', '--clustered', bad, '--graded', sample('graded.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${bad}, line 3: "cluster_assignments"[4] = 99 is outside 0..`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('bad JSON in the graded file names file and line', async () => {
    const bad = join(dir, 'bad-graded.jsonl');
    await writeFile(bad, '{"id": "q11_00000", "grade": "CORRECT", "Y": 1}\n{"id": "q11_00001", "Y": \n');
    const r = await semece(['score', '--clustered', sample('clustered.jsonl'), '--graded', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${bad}, line 2: bad JSON`);
  });

  it('a missing file, a missing option and a bad value are usage errors', async () => {
    const missing = await semece(['score', '--clustered', join(dir, 'nope.jsonl'), '--graded', sample('graded.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read --clustered');
    expect(missing.stderr).toContain('no such file');
    const noGraded = await semece(['score', '--clustered', sample('clustered.jsonl')]);
    expect(noGraded.code).toBe(2);
    expect(noGraded.stderr).toContain('both --clustered FILE and --graded FILE are required');
    const badB = await semece(['score', '--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'), '--B', 'many']);
    expect(badB.code).toBe(2);
    expect(badB.stderr).toContain("--B must be a whole number, got 'many'");
  });
});

describe('the dispatcher', () => {
  it('lists the commands found in cli/commands, including score', async () => {
    const r = await semece(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/commands:\n(.|\n)*\bscore\b/);
  });

  it('an unknown command exits 2 with the usage', async () => {
    const r = await semece(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
    expect(r.stderr).toContain('commands:');
  });

  it('no command prints the usage and exits 2', async () => {
    const r = await semece([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('usage: semece <command>');
  });
});

describe('toJson', () => {
  it('writes NaN and ±Infinity as null, typed arrays as arrays, doubles exactly', () => {
    const text = toJson({ a: NaN, b: [1, Infinity, -Infinity], c: Float64Array.from([0.1, NaN]), d: 0.30000000000000004 });
    expect(text).toBe('{"a":null,"b":[1,null,null],"c":[0.1,null],"d":0.30000000000000004}');
    expect(toJson({ x: 1 }, { pretty: true })).toBe('{\n "x": 1\n}');
  });
});
