import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlRecords } from '../../../cli/jsonl-records';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-jsonl-records-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const isNumber = (v: unknown): v is number => typeof v === 'number';
const cache = (file: string) => new JsonlRecords<number>(file, 'value', isNumber).load();

test('records are read back a line at a time: the last of a key wins, CRLF and blank lines are fine, a clean file is left as it is', async () => {
  const file = join(dir, 'clean.jsonl');
  const long = 'ü'.repeat(70_000); // a key that crosses the stream's 64 KB chunks mid-character
  const text = `{"key":"a","value":1}\r\n\n{"key":"${long}","value":2}\n{"key":"a","value":3}\n`;
  await writeFile(file, text);
  const c = await cache(file);
  expect([c.size, c.get('a'), c.get(long), c.damagedLines]).toEqual([2, 3, 2, 0]);
  expect(await readFile(file, 'utf8')).toBe(text);
  // Appends go on after it and are read back.
  await c.put([{ key: 'b', value: 4 }]);
  expect((await cache(file)).get('b')).toBe(4);
});

test('a torn line is dropped and the file rewritten without it; records of another cache in the same file are kept', async () => {
  const file = join(dir, 'torn.jsonl');
  await writeFile(file, '{"key":"a","value":1}\n{"key":"other","verdict":"CORRECT"}\n{"key":"b","val');
  const c = await cache(file);
  expect([c.size, c.get('a'), c.get('b'), c.damagedLines]).toEqual([1, 1, undefined, 1]);
  expect(await readFile(file, 'utf8')).toBe('{"key":"a","value":1}\n{"key":"other","verdict":"CORRECT"}\n');
  await c.put([{ key: 'b', value: 2 }]);
  const again = await cache(file);
  expect([again.size, again.get('b'), again.damagedLines]).toEqual([2, 2, 0]);
});

test('a whole last record without its line break gets one, so the next append starts a line of its own', async () => {
  const file = join(dir, 'unended.jsonl');
  await writeFile(file, '{"key":"a","value":1}');
  const c = await cache(file);
  expect(c.damagedLines).toBe(0);
  expect(await readFile(file, 'utf8')).toBe('{"key":"a","value":1}\n');
  await c.put([{ key: 'b', value: 2 }]);
  expect((await cache(file)).size).toBe(2);
});

test('an empty or missing file is an empty cache', async () => {
  const empty = join(dir, 'empty.jsonl');
  await writeFile(empty, '');
  expect((await cache(empty)).size).toBe(0);
  expect(await readFile(empty, 'utf8')).toBe('');
  expect((await cache(join(dir, 'missing.jsonl'))).size).toBe(0);
});
