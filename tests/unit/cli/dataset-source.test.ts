import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseHubSpec, readDatasetSource } from '../../../cli/dataset-source';
import run from '../../../cli/commands/sample';
import { HLE_TOKEN, catalogueRepos } from '../../mock/hub-datasets';
import { startMockHub, type MockHub } from '../../mock/hub-server';
import { MockProviderServer } from '../../mock/provider-server';

let hub: MockHub;
let dir: string;
beforeAll(async () => {
  hub = await startMockHub(catalogueRepos());
  dir = await mkdtemp(join(tmpdir(), 'semece-hub-cli-'));
});
afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

const env = (extra: NodeJS.ProcessEnv = {}) => ({ HF_ENDPOINT: hub.url, SEMECE_HUB_CACHE: join(dir, 'cache'), ...extra });

describe('hub: dataset arguments', () => {
  test('a catalogue repo takes its config, split and mapping; a split given replaces the split; others default to default/train', () => {
    expect(parseHubSpec('hub:basicv8vc/SimpleQA')).toMatchObject({ ok: true, value: { source: { repo: 'basicv8vc/SimpleQA', config: 'default', split: 'test' }, mapping: { problem: 'question' } } });
    expect(parseHubSpec('hub:mandarjoshi/trivia_qa:train')).toMatchObject({ ok: true, value: { source: { config: 'rc.nocontext', split: 'train' } } });
    expect(parseHubSpec('hub:me/mine:extra/dev')).toEqual({ ok: true, value: { source: { repo: 'me/mine', config: 'extra', split: 'dev' } } });
    expect(parseHubSpec('hub:me/mine')).toEqual({ ok: true, value: { source: { repo: 'me/mine', config: 'default', split: 'train' } } });
    for (const bad of ['hub:', 'hub:justone', 'hub:a/b:c/d/e', 'hub:a b/c']) expect(parseHubSpec(bad).ok).toBe(false);
  });

  test('--limit and --seed draw the same questions as the app, stratified by category; files are cached in the folder', async () => {
    const lines: string[] = [];
    const read = await readDatasetSource('hub:basicv8vc/SimpleQA', { env: env(), log: (l) => lines.push(l), limit: 4, seed: 1 });
    if (!read.ok) throw new Error(read.error.message);
    const { dataset } = read.value;
    expect(dataset.questions).toHaveLength(4);
    // 12 questions, 6/3/3 by topic → quotas 2/1/1.
    expect(dataset.questions.map((q) => q.category).sort()).toEqual(['Art', 'Geography', 'Science', 'Science']);
    expect(dataset.subset).toMatchObject({ of: 12, seed: 1, stratifiedBy: 'category' });
    expect(lines.some((l) => l.startsWith('downloading hub:basicv8vc/SimpleQA'))).toBe(true);
    expect((await readdir(join(dir, 'cache'))).length).toBe(2);
    const before = hub.requests.length;
    const again = await readDatasetSource('hub:basicv8vc/SimpleQA', { env: env(), log: () => {}, limit: 4, seed: 1 });
    expect(hub.requests.length).toBe(before);
    expect(again.ok && again.value.dataset.subset!.ids).toEqual(dataset.subset!.ids);
  });

  test('a gated dataset reads with HF_TOKEN and is refused without it', async () => {
    const without = await readDatasetSource('hub:cais/hle', { env: env(), log: () => {} });
    expect(!without.ok && without.error.message).toMatch(/needs a Hugging Face token/);
    const withToken = await readDatasetSource('hub:cais/hle', { env: env({ HF_TOKEN: HLE_TOKEN }), log: () => {} });
    expect(withToken.ok && withToken.value.dataset.questions.map((q) => q.id)).toEqual(['hle-1', 'hle-3']);
  });
});

test('semece sample --dataset hub:… --limit N --seed S samples the drawn questions (exit 0), and a missing split exits 2', async () => {
  const KEY = 'sk-hub-cli-test-0123456789';
  const mock = await MockProviderServer.start({ apiKey: KEY, defaultAnswers: { 'an answer': 1 } });
  try {
    const out = join(dir, 'rows.jsonl');
    const err: string[] = [];
    const args = ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'm', '--out', out, '--samples', '2'];
    const code = await run([...args, '--dataset', 'hub:basicv8vc/SimpleQA', '--limit', '3', '--seed', '5'], { out: () => {}, err: (s) => err.push(s), env: env({ OPENAI_API_KEY: KEY }) });
    expect(code).toBe(0);
    const rows = (await import('node:fs/promises')).readFile(out, 'utf8').then((t) => t.trim().split('\n').map((l) => JSON.parse(l)));
    const ids = (await rows).map((r: { id: string }) => r.id);
    const expected = await readDatasetSource('hub:basicv8vc/SimpleQA', { env: env(), log: () => {}, limit: 3, seed: 5 });
    expect(expected.ok && expected.value.dataset.subset!.ids).toEqual(ids);
    expect(err.some((l) => /asking 3 of 12 questions, drawn with seed 5/.test(l))).toBe(true);
    const missing: string[] = [];
    expect(await run([...args, '--out', join(dir, 'other.jsonl'), '--dataset', 'hub:basicv8vc/SimpleQA:dev'], { out: () => {}, err: (s) => missing.push(s), env: env({ OPENAI_API_KEY: KEY }) })).toBe(2);
    expect(missing.join('\n')).toMatch(/split "dev" of basicv8vc\/SimpleQA \(404\)/);
  } finally {
    await mock.close();
  }
});
