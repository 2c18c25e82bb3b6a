import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeFileAtomic, writeJsonl } from '../../../cli/command-io.ts';

describe('writeFileAtomic', () => {
  test('replaces the file whole and leaves no temporary file beside it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'semece-io-'));
    const file = path.join(dir, 'out.jsonl');
    await writeFile(file, 'old\n');
    await writeJsonl(file, [{ a: 1 }, { b: 2 }]);
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
    expect(await readdir(dir)).toEqual(['out.jsonl']);
  });

  test('a failed rename keeps what was there and removes its temporary file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'semece-io-'));
    // The target is a non-empty folder: the temporary file is written, the rename over it fails.
    const target = path.join(dir, 'out.jsonl');
    await mkdir(target);
    await writeFile(path.join(target, 'kept'), 'kept');
    await expect(writeFileAtomic(target, 'x')).rejects.toThrow();
    expect(await readdir(dir)).toEqual(['out.jsonl']);
    expect(await readFile(path.join(target, 'kept'), 'utf8')).toBe('kept');
  });
});
