/** `semece sample --batch write|read|submit` against files and the loopback mock. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { batchServiceFor } from '../../../../src/batch/service-for-model.ts';
import { MockProviderServer } from '../../../mock/provider-server.ts';
import { successLine, errorLine } from '../../batch/fixtures.ts';

const KEY = 'sk-batch-cli-key-987654';
const QS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'au', question: 'What is the capital of Australia?', answer: 'Canberra' },
  { id: 'mo', question: 'Who wrote Moby-Dick?', answer: 'Herman Melville' },
];
let mock: MockProviderServer;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-batch-'));
  await writeFile(join(dir, 'qs.jsonl'), QS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start({
    apiKey: KEY,
    questions: [
      { match: QS[0].question, id: 'fr', answers: { Paris: 1 } },
      { match: QS[1].question, id: 'au', answers: { Canberra: 3, Sydney: 1 } },
      { match: QS[2].question, id: 'mo', answers: { 'Herman Melville': 1 } },
    ],
  });
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

const PROVIDERS = {
  openai: { args: ['--provider', 'openai', '--model', 'gpt-4o-mini'], path: '/v1', env: 'OPENAI_API_KEY' },
  anthropic: { args: ['--provider', 'anthropic', '--model', 'claude-haiku-4-5'], path: '/v1', env: 'ANTHROPIC_API_KEY' },
  gemini: { args: ['--provider', 'gemini', '--model', 'gemini-2.5-flash'], path: '/v1beta', env: 'GEMINI_API_KEY' },
};

async function cli(api: keyof typeof PROVIDERS, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const p = PROVIDERS[api];
  const base = [...p.args, '--base-url', `${mock.url}${p.path}`, '--dataset', join(dir, 'qs.jsonl'), '--samples', '3', '--poll-interval', '1'];
  const code = await run([...base, ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: { [p.env]: KEY } });
  return { code, out, err, json: out.length ? JSON.parse(out.at(-1)!) : undefined };
}

const rowsIn = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

describe('semece sample --batch', () => {
  it('write → read: request file out, result file in, the same rows as interactive sampling', async () => {
    const reqPath = join(dir, 'req.jsonl');
    const w = await cli('openai', ['--batch', 'write', '--out-requests', reqPath]);
    expect(w.code).toBe(0);
    expect(w.json).toMatchObject({ requests: 3, samples: 9, cached: 0, perRequest: 3 });
    const lines = (await readFile(reqPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.body.n)).toEqual([3, 3, 3]);
    const results = lines.map((l) => successLine('openai', l.custom_id, [0, 1, 2].map((i) => `Answer: A${i}\nConfidence: 50%`)));
    await writeFile(join(dir, 'out.jsonl'), results.join('\n') + '\n');
    const out = join(dir, 'rows.jsonl');
    const r = await cli('openai', ['--batch', 'read', '--results', join(dir, 'out.jsonl'), '--out', out]);
    expect(r.code).toBe(0);
    const rows = await rowsIn(out);
    expect(rows.map((x) => [x.id, x.n_samples, x.answer_extracted])).toEqual([['fr', 3, ['A0', 'A1', 'A2']], ['au', 3, ['A0', 'A1', 'A2']], ['mo', 3, ['A0', 'A1', 'A2']]]);
    expect(rows[0].confidence_verbalized).toEqual([0.5, 0.5, 0.5]);
    // The cache is shared with interactive sampling: an interactive run now requests nothing.
    const again = await run(['--provider', 'openai', '--model', 'gpt-4o-mini', '--base-url', `${mock.url}/v1`, '--dataset', join(dir, 'qs.jsonl'), '--samples', '3', '--out', out], { out: () => undefined, err: () => undefined, env: { OPENAI_API_KEY: KEY } });
    expect(again).toBe(0);
    expect(mock.stats().requests).toBe(0);
    // And writing requests again leaves out everything cached.
    const w2 = await cli('openai', ['--batch', 'write', '--out-requests', join(dir, 'req2.jsonl'), '--out', out]);
    expect(w2.json).toMatchObject({ requests: 0, cached: 9, files: [] });
  });

  it('read: names file and line of every bad line, keeps the good ones, exits 3 (partial) while samples are missing', async () => {
    const reqPath = join(dir, 'req.jsonl');
    await cli('anthropic', ['--batch', 'write', '--out-requests', reqPath]);
    const ids = (await readFile(reqPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l).custom_id as string);
    expect(ids).toHaveLength(9);
    const resPath = join(dir, 'results.jsonl');
    await writeFile(resPath, [successLine('anthropic', ids[0], ['Answer: x']), '{oops', errorLine('anthropic', ids[1], 'overloaded'), successLine('anthropic', 'not-ours', ['Answer: y']), successLine('anthropic', ids[0], ['Answer: z'])].join('\n'));
    const out = join(dir, 'rows.jsonl');
    const r = await cli('anthropic', ['--batch', 'read', '--results', resPath, '--out', out]);
    expect(r.code).toBe(3);
    const text = r.err.join('\n');
    expect(text).toContain(`${resPath}:2: not valid JSON`);
    expect(text).toContain(`${resPath}:3: custom_id ${ids[1]} failed: api_error: overloaded`);
    expect(text).toContain(`${resPath}:4: custom_id "not-ours" is not a sampling request`);
    expect(text).toContain(`${resPath}:5: custom_id ${ids[0]} appears again`);
    expect(r.json).toMatchObject({ missing: 8 });
    expect(existsSync(out)).toBe(false);
  });

  for (const api of ['openai', 'anthropic', 'gemini'] as const) {
    it(`${api}: submit polls the mock, retries failed items interactively, and writes rows`, async () => {
      mock.batches.configure({ failEvery: 2 });
      const out = join(dir, 'rows.jsonl');
      const r = await cli(api, ['--batch', 'submit', '--out', out]);
      expect(r.code, r.err.join('\n')).toBe(0);
      expect(r.json.failedInBatch).toBeGreaterThan(0);
      expect(r.err.join('\n')).toContain('requesting them interactively');
      const rows = await rowsIn(out);
      expect(rows.map((x) => x.n_samples)).toEqual([3, 3, 3]);
      expect(rows[0].answer_extracted).toEqual(['Paris', 'Paris', 'Paris']);
      expect(mock.stats().served).toEqual({ fr: 3, au: 3, mo: 3 });
      expect(r.err.join('\n')).not.toContain(KEY);
    });
  }

  it('submit --failed list: lists failed requests and exits 3 (partial)', async () => {
    mock.batches.configure({ failIds: [] , failEvery: 3 });
    const r = await cli('anthropic', ['--batch', 'submit', '--out', join(dir, 'rows.jsonl'), '--failed', 'list']);
    expect(r.code).toBe(3);
    expect(r.err.filter((l) => l.startsWith('failed: question ')).length).toBe(3);
    expect(r.json.missing).toBe(3);
  });

  it('an interrupted submit is resumed by collecting its batch, not by paying again', async () => {
    const out = join(dir, 'rows.jsonl');
    // A batch submitted by an earlier session that died before collecting it.
    const w = await cli('openai', ['--batch', 'write', '--out-requests', join(dir, 'req.jsonl')]);
    expect(w.code).toBe(0);
    const lines = (await readFile(join(dir, 'req.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const service = batchServiceFor({ kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' }, KEY);
    const earlier = await service.submit(lines);
    await writeFile(`${out}.batches.json`, JSON.stringify({ pending: [earlier.id] }));
    const created = mock.batches.created.openai;
    const r = await cli('openai', ['--batch', 'submit', '--out', out]);
    expect(r.code, r.err.join('\n')).toBe(0);
    expect(mock.batches.created.openai).toBe(created);
    expect(JSON.parse(await readFile(`${out}.batches.json`, 'utf8'))).toEqual({ pending: [] });
    expect(mock.stats().served).toEqual({ fr: 3, au: 3, mo: 3 });
  });

  it('bad usage exits 2 with the reason', async () => {
    const r = await cli('openai', ['--batch', 'nope']);
    expect(r.code).toBe(2);
    expect(r.err[0]).toContain('--batch must be write, read or submit');
    const r2 = await cli('openai', ['--batch', 'read', '--out', join(dir, 'x.jsonl')]);
    expect(r2.code).toBe(2);
    expect(r2.err[0]).toContain('--results');
  });
});
