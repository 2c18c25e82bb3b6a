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

const linesOf = async (file: string, limits?: { chunk: number; line: number }) => [...(await inputText(file, limits)).lines];

test('a file comes as its lines, split at \\n only, whatever the chunk size: characters are never cut', async () => {
  const file = join(dir, 'multi.txt');
  const text = 'ä€😀x\n'.repeat(1000) + 'a long line '.repeat(50) + '\n'; // 2-, 3- and 4-byte characters across every chunk boundary
  await writeFile(file, text);
  for (const chunk of [1, 2, 3, 5, 7, 64, 4096, 1 << 22]) {
    const lines = await linesOf(file, { chunk, line: 1 << 20 });
    // The last line is what follows the final \n (here empty).
    expect(lines).toEqual(text.split('\n'));
    expect(lines.some((c) => c.includes('\uFFFD'))).toBe(false);
  }
  await writeFile(file, '\uFEFF{"a":1}\r\n\n{"b":"ä"}');
  expect(await linesOf(file)).toEqual(['\uFEFF{"a":1}\r', '', '{"b":"ä"}']);
  await writeFile(file, '');
  expect(await linesOf(file)).toEqual(['']);
});

test('a missing file or a directory is refused at once; a line over the limit is named by its number', async () => {
  await expect(inputText(join(dir, 'absent.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  await expect(inputText(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  const file = join(dir, 'long.jsonl');
  await writeFile(file, '{"id":"a"}\n' + 'x'.repeat(5000) + '\n');
  await expect(linesOf(file, { chunk: 64, line: 1024 })).rejects.toThrow(`${file}, line 2: longer than 1 KB`);
});

test('the reference sample read as lines, with small or large chunks, scores from the same rows as read whole', async () => {
  const whole = readAuthorsRows({ text: await readFile(sample('clustered.jsonl'), 'utf8'), file: 'c' }, { text: await readFile(sample('graded.jsonl'), 'utf8'), file: 'g' });
  const chunked = readAuthorsRows(
    { text: await inputText(sample('clustered.jsonl'), { chunk: 4096, line: 1 << 20 }), file: 'c' },
    { text: await inputText(sample('graded.jsonl'), { chunk: 777, line: 1 << 20 }), file: 'g' },
  );
  const lines = readAuthorsRows({ text: await inputText(sample('clustered.jsonl')), file: 'c' }, { text: await inputText(sample('graded.jsonl')), file: 'g' });
  expect(whole.ok).toBe(true);
  expect(chunked).toEqual(whole);
  expect(lines).toEqual(whole);
});
