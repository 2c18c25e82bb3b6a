/**
 * `semece sample --batch read|submit` with a server that writes the key it was given into reply
 * texts and error messages: no file the command writes (the sample cache, --out, the batch state)
 * and nothing it prints holds the key in any form the one scrubber knows; the replies are kept
 * with the key masked, and are otherwise as they came.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { MIN_FRAGMENT } from '../../../../src/providers/secret-scrub.ts';
import { MockProviderServer } from '../../../mock/provider-server.ts';
import { errorLine, successLine } from '../../batch/fixtures.ts';

const KEY = 'sk-batch-echoed-key-0123456789';
const QS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'au', question: 'What is the capital of Australia?', answer: 'Canberra' },
];
let mock: MockProviderServer;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-batch-key-'));
  await writeFile(join(dir, 'qs.jsonl'), QS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start({
    apiKey: KEY,
    questions: [
      { match: QS[0].question, id: 'fr', answers: { Paris: 1 } },
      { match: QS[1].question, id: 'au', answers: { Canberra: 1 } },
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
  const base = [...p.args, '--base-url', `${mock.url}${p.path}`, '--dataset', join(dir, 'qs.jsonl'), '--samples', '2', '--poll-interval', '1'];
  const code = await run([...base, ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: { [p.env]: KEY } });
  return { code, printed: [...out, ...err].join('\n'), err };
}

/** Any run of MIN_FRAGMENT characters of the key (raw or URL-encoded) in `text`. */
function keyFragmentIn(text: string): string | undefined {
  for (const form of [KEY, encodeURIComponent(KEY)]) {
    for (let i = 0; i + MIN_FRAGMENT <= form.length; i++) if (text.includes(form.slice(i, i + MIN_FRAGMENT))) return form.slice(i, i + MIN_FRAGMENT);
  }
  return undefined;
}

/** Every file the command wrote in the folder (the inputs given to it left out), by name. */
async function written(inputs: string[]): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(dir)) if (!inputs.includes(name)) files[name] = await readFile(join(dir, name), 'utf8');
  return files;
}

const rowsIn = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

describe('a batch server that echoes the key', () => {
  it('read: result files with the key in reply texts and in error messages are stored and written without it', async () => {
    const reqPath = join(dir, 'req.jsonl');
    expect((await cli('openai', ['--batch', 'write', '--out-requests', reqPath])).code).toBe(0);
    const ids = (await readFile(reqPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l).custom_id as string);
    expect(ids).toHaveLength(2);
    const echo = (i: number) => `Answer: Paris (sent with ${KEY})\nConfidence: ${60 + i}%`;
    // First file: one request failed with the key in its error, the other answered with it in the text.
    await writeFile(join(dir, 'res1.jsonl'), [errorLine('openai', ids[0], `Incorrect API key provided: ${KEY}`), successLine('openai', ids[1], [echo(0), echo(1)])].join('\n') + '\n');
    const out = join(dir, 'rows.jsonl');
    const first = await cli('openai', ['--batch', 'read', '--results', join(dir, 'res1.jsonl'), '--out', out]);
    expect(first.code).toBe(3);
    expect(first.printed).toContain('failed: server_error: Incorrect API key provided: [key]');
    // Second file: the failed request's replies, the key URL-encoded in them.
    await writeFile(join(dir, 'res2.jsonl'), successLine('openai', ids[0], [0, 1].map((i) => `Answer: Paris (${encodeURIComponent(KEY)})\nConfidence: ${70 + i}%`)) + '\n');
    const second = await cli('openai', ['--batch', 'read', '--results', join(dir, 'res2.jsonl'), '--out', out]);
    expect(second.code, second.printed).toBe(0);

    const rows = await rowsIn(out);
    expect(rows.map((r) => r.results)).toEqual([
      ['Answer: Paris ([key])\nConfidence: 70%', 'Answer: Paris ([key])\nConfidence: 71%'],
      ['Answer: Paris (sent with [key])\nConfidence: 60%', 'Answer: Paris (sent with [key])\nConfidence: 61%'],
    ]);
    expect(rows[1].answer_extracted).toEqual(['Paris (sent with [key])', 'Paris (sent with [key])']);
    expect(rows[1].confidence_verbalized).toEqual([0.6, 0.61]);
    const files = await written(['qs.jsonl', 'req.jsonl', 'res1.jsonl', 'res2.jsonl']);
    expect(Object.keys(files).sort()).toEqual(['rows.jsonl', 'rows.jsonl.cache.jsonl']);
    for (const [name, text] of Object.entries(files)) expect(keyFragmentIn(text), name).toBeUndefined();
    expect(keyFragmentIn(first.printed + second.printed)).toBeUndefined();
  });

  for (const api of ['openai', 'anthropic', 'gemini'] as const) {
    it(`${api}: submit stores the echoed replies without the key, lists the echoed errors without it, and writes rows without it`, async () => {
      mock.batches.configure({ echoKey: true, failEvery: 2 });
      const out = join(dir, 'rows.jsonl');
      const r = await cli(api, ['--batch', 'submit', '--out', out]);
      expect(r.code, r.printed).toBe(0);
      // Some replies came from the batch (echoing the key), the failed ones interactively.
      const rows = await rowsIn(out);
      const results = rows.flatMap((x) => x.results as string[]);
      expect(results.some((t) => t.includes('(your key is [key], or [key])'))).toBe(true);
      expect(rows.flatMap((x) => x.answer_extracted)).toEqual(expect.arrayContaining([expect.stringMatching(/^(Paris|Canberra) \(your key is \[key\], or \[key\]\)$/)]));
      for (const [name, text] of Object.entries(await written(['qs.jsonl']))) expect(keyFragmentIn(text), name).toBeUndefined();
      expect(keyFragmentIn(r.printed)).toBeUndefined();
    });
  }
});
