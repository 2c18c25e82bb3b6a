import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputText } from '../../../cli/input-text';
import { readAuthorsRows } from '../../../src/formats/authors-rows';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-input-text-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sample = (name: string) => fileURLToPath(new URL(`../../fixtures/reference-sample/${name}`, import.meta.url));

test('a file within the limit is one string; a larger one comes as chunks whose characters are never cut', async () => {
  const file = join(dir, 'multi.txt');
  const text = 'ä€😀x\n'.repeat(1000); // 2-, 3- and 4-byte characters across every chunk boundary
  await writeFile(file, text);
  expect(await inputText(file)).toBe(text);
  for (const chunk of [1, 2, 3, 5, 7, 64]) {
    const got = await inputText(file, { whole: 100, chunk });
    expect(typeof got).not.toBe('string');
    const chunks = [...(got as Iterable<string>)];
    expect(chunks.join('')).toBe(text);
    expect(chunks.some((c) => c.includes('\uFFFD'))).toBe(false);
  }
});

test('the reference sample read in chunks scores from the same rows as read whole', async () => {
  const whole = readAuthorsRows({ text: await readFile(sample('clustered.jsonl'), 'utf8'), file: 'c' }, { text: await readFile(sample('graded.jsonl'), 'utf8'), file: 'g' });
  const chunked = readAuthorsRows(
    { text: await inputText(sample('clustered.jsonl'), { whole: 0, chunk: 4096 }), file: 'c' },
    { text: await inputText(sample('graded.jsonl'), { whole: 0, chunk: 777 }), file: 'g' },
  );
  expect(whole.ok).toBe(true);
  expect(chunked).toEqual(whole);
});
