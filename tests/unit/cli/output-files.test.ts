/**
 * Output files survive a kill and are never shared: every command writes its output to a
 * temporary file and renames it (so kill -9 mid-write leaves the old file or none, never a torn
 * one), holds `<out>.lock` while it runs (a second process on the same --out is refused; a lock
 * left by a killed process is taken over), and refuses an output that is one of its inputs.
 *
 * The kill happens at a known moment: SEMECE_TEST_HOLD_WRITE makes the write of that file stop
 * halfway through its temporary file and say so on stderr; the test kills the process then.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLD_WRITE_ENV, HOLD_WRITE_MESSAGE } from '../../../cli/command-io';
import { EXIT } from '../../../cli/exit-codes';
import { parseReport } from '../../../src/formats/report-import';
import { MockProviderServer } from '../../mock/provider-server';
import { semece, spawnSemece, until, type CliResult } from './run-cli';

const KEY = 'sk-Hy5tR1cV6bN0mQ2wE8';
let dir: string;
let mock: MockProviderServer;
const ref = (name: string) => join('tests/fixtures/reference-sample', name);
const f = (name: string) => join(dir, name);

/** Many rows, so the output is large: the write being cut is of megabytes, not of one line. */
function sampledRows(count: number): string {
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const answers = Array.from({ length: 10 }, (_, j) => `answer ${(i * 7 + j) % 4} of question ${i}`);
    rows.push(JSON.stringify({ id: `q${i}`, question: `Question ${i}?`, gold_answer: 'answer 0', model: 'm', n_samples: 10, results: answers, answer_extracted: answers, confidence_verbalized: Array(10).fill(0.5) }));
  }
  return rows.join('\n') + '\n';
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-outputs-'));
  await writeFile(f('sampled.jsonl'), sampledRows(5_000));
  await writeFile(f('qs.jsonl'), '{"id": "fr", "question": "What is the capital of France?", "answer": "Paris"}\n');
  await writeFile(f('mc.jsonl'), '{"id": "c1", "question": "Which colour is the sky?", "options": ["red", "blue"], "answer": "B"}\n');
  mock = await MockProviderServer.start({ apiKey: KEY, defaultAnswers: { Paris: 1 } });
  mock.responder = (req) => (/probability/i.test(req.system + req.user) ? '{"answer":"B","probability":80}' : undefined);
});
afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

const provider = () => ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'm'];
const env = { OPENAI_API_KEY: KEY };

/** Each command that writes a file, with the file it writes and how to check that file is whole. */
const WRITERS: { name: string; out: string; args: () => string[]; whole: (text: string) => void }[] = [
  { name: 'cluster', out: 'clustered.jsonl', args: () => ['cluster', '--method', 'exact', '--in', f('sampled.jsonl'), '--out', f('clustered.jsonl')], whole: (t) => expect(jsonl(t)).toHaveLength(5_000) },
  { name: 'grade', out: 'graded.jsonl', args: () => ['grade', '--method', 'alias', '--in', ref('clustered.jsonl'), '--out', f('graded.jsonl')], whole: (t) => expect(jsonl(t).length).toBeGreaterThan(100) },
  { name: 'score --report', out: 'report.json', args: () => ['score', '--clustered', ref('clustered.jsonl'), '--graded', ref('graded.jsonl'), '--B', '50', '--report', f('report.json')], whole: (t) => expect(parseReport(t).ok).toBe(true) },
  { name: 'sample', out: 'rows.jsonl', args: () => ['sample', ...provider(), '--dataset', f('qs.jsonl'), '--samples', '3', '--out', f('rows.jsonl')], whole: (t) => expect(jsonl(t)[0].n_samples).toBe(3) },
  { name: 'mc --out', out: 'mc-rows.jsonl', args: () => ['mc', ...provider(), '--dataset', f('mc.jsonl'), '--runs', '2', '--no-logprobs', '--out', f('mc-rows.jsonl')], whole: (t) => expect(jsonl(t)).toHaveLength(2) },
];

const jsonl = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l));

/** Starts the command with its write of `out` held halfway; resolves once it is held. */
async function heldWrite(args: string[], out: string) {
  const run = spawnSemece(args, { ...env, [HOLD_WRITE_ENV]: out });
  let ended: CliResult | undefined;
  void run.done.then((r) => (ended = r));
  let stderr = '';
  run.child.stderr!.on('data', (d) => (stderr += d));
  await until(() => stderr.includes(HOLD_WRITE_MESSAGE) || ended !== undefined);
  if (ended) throw new Error(`the write of ${out} was never held (does the command write through writeFileAtomic?): exit ${ended.code}\n${ended.stderr}`);
  return run;
}

describe('kill -9 during the write of an output', () => {
  for (const w of WRITERS) {
    it(`${w.name}: the output is absent or the old one, whole; the next run takes over the lock and writes it whole`, async () => {
      const out = f(w.out);
      // First kill: no output yet, so none may appear.
      let run = await heldWrite(w.args(), out);
      const temporary = (await readdir(dir)).find((n) => n.startsWith(`${w.out}.`) && n.endsWith('.tmp'));
      expect(temporary, 'the half-written temporary file').toBeDefined();
      run.child.kill('SIGKILL');
      expect((await run.done).signal).toBe('SIGKILL');
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.lock`), 'the lock the killed process left').toBe(true);

      // The lock of the killed process is stale: this run takes it over and writes the output whole.
      const done = await semece(w.args(), env);
      expect(done.stderr).not.toMatch(/is writing/);
      expect([EXIT.ok, EXIT.partial]).toContain(done.code);
      const first = await readFile(out, 'utf8');
      w.whole(first);
      expect(existsSync(`${out}.lock`)).toBe(false);
      expect(existsSync(join(dir, temporary!)), 'the killed writer\'s temporary file, removed with its lock').toBe(false);

      // Second kill, over the complete output: it stays exactly as it was.
      run = await heldWrite(w.args(), out);
      run.child.kill('SIGKILL');
      await run.done;
      expect(await readFile(out, 'utf8')).toBe(first);
      await rm(`${out}.lock`, { force: true });
    });
  }
});

describe('one writer per output', () => {
  it('a second process on the same --out is refused at once, naming the holder and the lock', async () => {
    const out = f('busy.jsonl');
    const args = ['cluster', '--method', 'exact', '--in', f('sampled.jsonl'), '--out', out];
    const first = await heldWrite(args, out);
    try {
      const second = await semece(args);
      expect(second.code).toBe(EXIT.failed);
      expect(second.stderr).toContain(`another semece command (pid ${first.child.pid}) is writing ${out}`);
      expect(second.stderr).toContain(`${out}.lock`);
      expect(second.stdout).toBe('');
    } finally {
      first.child.kill('SIGKILL');
      await first.done;
    }
    expect(existsSync(out)).toBe(false);
  });

  it('an --out that is one of the inputs is refused, also through a symbolic link, before anything is written', async () => {
    const input = f('in-place.jsonl');
    const text = sampledRows(3);
    await writeFile(input, text);
    const same = await semece(['cluster', '--method', 'exact', '--in', input, '--out', input]);
    expect(same.code).toBe(EXIT.badInput);
    expect(same.stderr).toContain(`--out ${input} is the same file as --in ${input}`);
    await symlink(input, f('link.jsonl'));
    const linked = await semece(['cluster', '--method', 'exact', '--in', input, '--out', f('link.jsonl')]);
    expect(linked.code).toBe(EXIT.badInput);
    expect(linked.stderr).toContain('is the same file as --in');
    const report = await semece(['score', '--clustered', input, '--graded', ref('graded.jsonl'), '--report', join(dir, '.', 'in-place.jsonl')]);
    expect(report.code).toBe(EXIT.badInput);
    expect(report.stderr).toContain('--report');
    expect(await readFile(input, 'utf8')).toBe(text);
    expect(existsSync(`${input}.lock`)).toBe(false);
  });
});
