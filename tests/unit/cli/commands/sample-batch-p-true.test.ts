/**
 * `semece sample --batch … --p-true` is refused (exit 2) with the reason and what to run instead,
 * and what it says to run works: after a batch has stored every sample, `semece sample --p-true`
 * with the same flags and --out requests no sample again and asks only p(True).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { P_TRUE_WITH_BATCH } from '../../../../cli/commands/sample-batch.ts';
import { MockProviderServer, type ParsedRequest } from '../../../mock/provider-server.ts';
import { successLine } from '../../batch/fixtures.ts';

const KEY = 'sk-batch-ptrue-key-24680';
const QS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'au', question: 'What is the capital of Australia?', answer: 'Canberra' },
];
let mock: MockProviderServer;
let dir: string;
let pTrueAsked: number;

// Every p(True) request gets a verdict with logprobs: P(True) 0.75, P(False) 0.25.
function responder(req: ParsedRequest) {
  if (!req.user.includes('Is the possible answer')) return undefined;
  pTrueAsked += 1;
  return { text: 'True', logprobs: [{ token: 'True', logprob: Math.log(0.75), top_logprobs: [{ token: 'True', logprob: Math.log(0.75) }, { token: 'False', logprob: Math.log(0.25) }] }] };
}

beforeEach(async () => {
  pTrueAsked = 0;
  dir = await mkdtemp(join(tmpdir(), 'semece-batch-ptrue-'));
  await writeFile(join(dir, 'qs.jsonl'), QS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start(
    { apiKey: KEY, questions: [{ match: QS[0].question, id: 'fr', answers: { Paris: 1 } }, { match: QS[1].question, id: 'au', answers: { Canberra: 1 } }] },
    { responder },
  );
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const base = ['--provider', 'openai', '--model', 'gpt-4o-mini', '--base-url', `${mock.url}/v1`, '--dataset', join(dir, 'qs.jsonl'), '--samples', '3'];
  const code = await run([...base, ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: { OPENAI_API_KEY: KEY } });
  return { code, out, err };
}

describe('semece sample --batch with --p-true', () => {
  it.each([
    ['write', ['--batch', 'write', '--out-requests', 'REQ', '--p-true']],
    ['read', ['--batch', 'read', '--results', 'RES', '--out', 'OUT', '--p-true-samples', '4']],
    ['submit', ['--batch', 'submit', '--out', 'OUT', '--p-true', '--p-true-brainstorm']],
  ])('--batch %s: exit 2, the reason and the command to run instead; nothing written or sent', async (_mode, args) => {
    const paths = { REQ: join(dir, 'req.jsonl'), RES: join(dir, 'res.jsonl'), OUT: join(dir, 'rows.jsonl') };
    const r = await cli(args.map((a) => paths[a as keyof typeof paths] ?? a));
    expect(r.code).toBe(2);
    const said = r.err.join('\n');
    expect(said).toContain(P_TRUE_WITH_BATCH);
    expect(said).toMatch(/most frequent answer/);
    expect(said).toMatch(/without --batch and with --p-true/);
    expect(existsSync(paths.REQ) || existsSync(paths.OUT)).toBe(false);
    expect(mock.stats().requests).toBe(0);
  });

  it('what the message says to run: after the batch, semece sample --p-true asks only p(True), one request a question', async () => {
    const reqPath = join(dir, 'req.jsonl');
    const out = join(dir, 'rows.jsonl');
    expect((await cli(['--batch', 'write', '--out-requests', reqPath])).code).toBe(0);
    const lines = (await readFile(reqPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    await writeFile(join(dir, 'res.jsonl'), lines.map((l) => successLine('openai', l.custom_id, [0, 1, 2].map(() => 'Answer: Paris\nConfidence: 80%'))).join('\n') + '\n');
    expect((await cli(['--batch', 'read', '--results', join(dir, 'res.jsonl'), '--out', out])).code).toBe(0);
    expect(mock.stats().requests).toBe(0);

    const p = await cli(['--out', out, '--p-true']);
    expect(p.code).toBe(0);
    // Two questions, one p(True) request each (logprobs came back), and no sample asked again.
    expect(pTrueAsked).toBe(2);
    expect(mock.stats().requests).toBe(2);
    const rows = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((x) => [x.id, x.answer_extracted, x.p_true, x.p_true_method])).toEqual([
      ['fr', ['Paris', 'Paris', 'Paris'], 0.75, 'logprobs'],
      ['au', ['Paris', 'Paris', 'Paris'], 0.75, 'logprobs'],
    ]);
  });
});
