import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolveIo, writeFileAtomic, writeLinesAtomic } from '../../../cli/command-io.ts';

describe('writeFileAtomic', () => {
  test('replaces the file whole and leaves no temporary file beside it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'semece-io-'));
    const file = path.join(dir, 'out.jsonl');
    await writeFile(file, 'old\n');
    await writeLinesAtomic(file, ['{"a":1}', '{"b":2}']);
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

describe('resolveIo', () => {
  test('every stderr line goes through the one scrubber with the keys in the environment', () => {
    const key = 'sk-ant-cli-0123456789abcdefXYZ';
    const other = 'plain-local-server-secret-42';
    const lines: string[] = [];
    const { err, out } = resolveIo({ err: (s) => lines.push(s), out: (s) => lines.push(`out ${s}`), env: { ANTHROPIC_API_KEY: key, SEMECE_API_KEY: other } });
    err(`semece sample: refused ${key.slice(0, 12)}… (Basic ${Buffer.from(`me:${other}`).toString('base64')})`);
    expect(lines[0]).not.toContain(key.slice(0, 12));
    expect(lines[0]).toMatch(/^semece sample: refused \[key\]… \(Basic .{0,8}\[key\]=*\)$/);
    // Results on stdout are the command's own data, written as they are.
    out('{"ok":true}');
    expect(lines[1]).toBe('out {"ok":true}');
  });
});
