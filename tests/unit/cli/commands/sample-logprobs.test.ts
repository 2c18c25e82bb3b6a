/**
 * `semece sample --logprobs` against the loopback mock: the request asks for logprobs, each row
 * gets sequence_logprobs (each sample's token log-probabilities summed) when every sample has one;
 * without the flag nothing is asked and no row has the field.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { MockProviderServer, type ParsedRequest } from '../../../mock/provider-server.ts';

const KEY = 'sk-cli-test-key-1234567890';
let mock: MockProviderServer;
let dir: string;
let askedLogprobs: unknown[];

// Reply j of a question: "Paris" with token log-probabilities −0.25 and −0.5·(j mod 3).
function responder(req: ParsedRequest, j: number) {
  askedLogprobs.push(req.body.logprobs);
  const second = -0.5 * (j % 3);
  return { text: 'Answer: Paris\nConfidence: 90%', logprobs: [{ token: 'Answer: ', logprob: -0.25 }, { token: 'Paris', logprob: second }] };
}

beforeEach(async () => {
  askedLogprobs = [];
  dir = await mkdtemp(join(tmpdir(), 'semece-logprobs-'));
  await writeFile(join(dir, 'qs.jsonl'), JSON.stringify({ id: 'fr', question: 'What is the capital of France?', answer: 'Paris' }) + '\n');
  mock = await MockProviderServer.start({ apiKey: KEY, questions: [{ match: 'capital of France', id: 'fr', answers: { Paris: 1 }, confidence: 90 }] }, { responder });
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[]) {
  const base = ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'gpt-4o-mini', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'rows.jsonl'), '--samples', '4'];
  return run([...base, ...args], { out: () => {}, err: () => {}, env: { OPENAI_API_KEY: KEY } });
}
const rows = async () => (await readFile(join(dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));

describe('semece sample --logprobs', () => {
  it('writes each sample’s sequence log-probability', async () => {
    expect(await cli(['--logprobs'])).toBe(0);
    expect(askedLogprobs.every((x) => x === true)).toBe(true);
    const [row] = await rows();
    // Replies 0..3: −0.25 + (0, −0.5, −1, 0).
    expect(row.sequence_logprobs).toEqual([-0.25, -0.75, -1.25, -0.25]);
  });

  it('asks for none and writes none without the flag', async () => {
    expect(await cli([])).toBe(0);
    expect(askedLogprobs.every((x) => x === undefined)).toBe(true);
    expect((await rows())[0]).not.toHaveProperty('sequence_logprobs');
  });
});
