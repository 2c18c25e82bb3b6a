import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BadRow, badRowLine, inGroups, jsonlRows } from '../../../cli/jsonl-rows';
import { FieldError, type Obj } from '../../../src/formats/authors-fields';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-jsonl-rows-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

const ids = (obj: Obj): string => {
  if (typeof obj.id !== 'string') throw new FieldError('"id" must be a string');
  return obj.id;
};

test('rows are read a line at a time: BOM, CRLF and blank lines skipped, multi-byte text kept whole across the stream’s chunks', async () => {
  const long = 'é'.repeat(70_000); // crosses readline's 64 KB chunks mid-character
  const file = join(dir, 'ok.jsonl');
  await writeFile(file, `\uFEFF{"id":"a"}\r\n\n   \n{"id":"${long}"}\n{"id":"c"}`);
  expect(await collect(jsonlRows(file, ids))).toEqual(['a', long, 'c']);
});

test('a bad line stops the read with FILE:LINE: bad JSON, not an object, a field the reader refuses', async () => {
  const cases: [string, RegExp][] = [
    ['{"id":"a"}\n{"id":\n', /bad JSON/],
    ['{"id":"a"}\n[1,2]\n', /expected a JSON object, got an array/],
    ['{"id":"a"}\n{"id":3}\n', /"id" must be a string/],
  ];
  for (const [i, [text, message]] of cases.entries()) {
    const file = join(dir, `bad${i}.jsonl`);
    await writeFile(file, text);
    const seen: string[] = [];
    const error = await (async () => {
      try {
        for await (const r of jsonlRows(file, ids)) seen.push(r);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(BadRow);
    expect((error as BadRow).where).toBe(`${file}:2`);
    expect((error as BadRow).message).toMatch(message);
    expect(seen).toEqual(['a']);
    expect(badRowLine('grade', error as BadRow)).toBe(`semece grade: ${file}:2: ${(error as BadRow).message}`);
  }
});

test('a missing file or a folder is an unreadable BadRow naming the file; other errors pass through', async () => {
  for (const file of [join(dir, 'missing.jsonl'), join(dir, 'folder')]) {
    if (file.endsWith('folder')) await mkdir(file);
    const error = await collect(jsonlRows(file, ids)).catch((e) => e);
    expect(error).toBeInstanceOf(BadRow);
    expect((error as BadRow).unreadable).toBe(true);
    expect(badRowLine('cluster', error as BadRow)).toMatch(new RegExp(`^semece cluster: cannot read --in ${file}: E(NOENT|ISDIR)`));
  }
  const file = join(dir, 'one.jsonl');
  await writeFile(file, '{"id":"a"}\n');
  const bug = await collect(jsonlRows(file, () => { throw new TypeError('a bug'); })).catch((e) => e);
  expect(bug).toBeInstanceOf(TypeError);
});

test('inGroups: groups of the size asked, the last shorter, none for no rows', async () => {
  async function* upTo(n: number) {
    for (let i = 0; i < n; i++) yield i;
  }
  expect(await collect(inGroups(upTo(7), 3))).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  expect(await collect(inGroups(upTo(6), 3))).toEqual([[0, 1, 2], [3, 4, 5]]);
  expect(await collect(inGroups(upTo(0), 3))).toEqual([]);
});
