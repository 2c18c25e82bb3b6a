/**
 * `semece score --report` with a reply longer than a report may hold: the file it writes must be
 * one the app opens (the reader's MAX_STRING_LENGTH), run the way a user runs it, through npm.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';
import { parseReportFile } from '../../../../src/formats/report-import';
import { MAX_STRING_LENGTH, truncationMarker } from '../../../../src/formats/report-limits';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const sample = (name: string) => join(root, 'tests/fixtures/reference-sample', name);
const LONG = 200_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-score-long-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function npmSemece(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'semece', '--', ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

test('a 200,000-character reply: score --report writes a file the app opens, the reply cut with a marker', async () => {
  const lines = (await readFile(sample('clustered.jsonl'), 'utf8')).split('\n');
  const row = JSON.parse(lines[0]);
  const original = row.results[0] as string;
  // The reply still ends with its answer and confidence, so it scores as before.
  const padding = 'Thinking it over. '.repeat(Math.ceil(LONG / 18));
  row.results[0] = padding.slice(0, LONG - original.length - 1) + '\n' + original;
  expect(row.results[0].length).toBe(LONG);
  lines[0] = JSON.stringify(row);
  const clustered = join(dir, 'clustered.jsonl');
  await writeFile(clustered, lines.join('\n'));
  const out = join(dir, 'out.json');

  const args = ['--graded', sample('graded.jsonl'), '--B', '60'];
  const r = await npmSemece(['score', '--clustered', clustered, ...args, '--report', out]);
  // The long reply changes nothing about the outcome: the same exit code and scores as the
  // unchanged file (the sample has excluded rows, so that code is cli/exit-codes.ts's, not always 0).
  // The unchanged file scored in-process by the same command module, for the outcome to compare with.
  const said: string[] = [];
  const plainCode = await run(['--clustered', sample('clustered.jsonl'), ...args], { out: (t) => said.push(t), err: () => undefined });
  const plain = { code: plainCode, stdout: said.join('\n') };
  expect(r.stderr).toMatch(/questions scored/);
  expect(r.code).toBe(plain.code);
  expect(r.code === 0 || r.code === 3).toBe(true);
  expect(JSON.parse(r.stdout)).toEqual(JSON.parse(plain.stdout));

  const text = await readFile(out);
  const back = await parseReportFile(new File([text], 'out.json'));
  expect(back.ok ? '' : back.error.message).toBe('');
  if (!back.ok) return;
  const q = back.value.models[0].questions.find((x) => x.id === row.id)!;
  const s = q.samples![0];
  expect(s.rawLength).toBe(LONG);
  expect(s.raw!.length).toBe(MAX_STRING_LENGTH);
  expect(s.raw!.endsWith(truncationMarker(LONG))).toBe(true);
  expect(s.raw!.startsWith('Thinking it over. ')).toBe(true);
  expect(q.samples![1].rawLength).toBeUndefined();
});
