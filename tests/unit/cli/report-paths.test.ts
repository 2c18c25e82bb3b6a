/**
 * `semece score --report` names its input without an absolute path: the path from the working
 * folder when the file is under it, the base name otherwise.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSource } from '../../../cli/report-paths';
import { parseReport } from '../../../src/formats/report-import';
import { root, semece } from './run-cli';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-report-paths-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reportSource', () => {
  it('is the path from the working folder inside it, the base name outside it', () => {
    expect(reportSource('/home/someone/work/data/c.jsonl', '/home/someone/work')).toBe('data/c.jsonl');
    expect(reportSource('data/c.jsonl', '/home/someone/work')).toBe('data/c.jsonl');
    expect(reportSource('./c.jsonl', '/home/someone/work')).toBe('c.jsonl');
    expect(reportSource('/tmp/x/c.jsonl', '/home/someone/work')).toBe('c.jsonl');
    expect(reportSource('../c.jsonl', '/home/someone/work')).toBe('c.jsonl');
  });
});

describe('semece score --report', () => {
  const fixture = (name: string) => join(root, 'tests/fixtures/reference-sample', name);

  it('an input outside the working folder, given by its absolute path: only its base name is stored', async () => {
    const clustered = join(dir, 'clustered.jsonl');
    await writeFile(clustered, await readFile(fixture('clustered.jsonl')));
    const report = join(dir, 'report.json');
    const r = await semece(['score', '--clustered', clustered, '--graded', fixture('graded.jsonl'), '--B', '50', '--report', report]);
    expect(r.stderr).toContain('questions scored');
    const text = await readFile(report, 'utf8');
    expect(text).not.toContain(dir);
    expect(text).not.toContain(root);
    const doc = parseReport(text);
    if (!doc.ok) throw new Error(doc.error.message);
    expect(doc.value.dataset).toMatchObject({ name: 'clustered.jsonl', source: 'clustered.jsonl' });
  });

  it('an input under the working folder, given by its absolute path: its path from there', async () => {
    const report = join(dir, 'inside.json');
    await semece(['score', '--clustered', fixture('clustered.jsonl'), '--graded', fixture('graded.jsonl'), '--B', '50', '--report', report]);
    const text = await readFile(report, 'utf8');
    expect(text).not.toContain(root);
    const doc = parseReport(text);
    if (!doc.ok) throw new Error(doc.error.message);
    expect(doc.value.dataset.source).toBe('tests/fixtures/reference-sample/clustered.jsonl');
  });
});
