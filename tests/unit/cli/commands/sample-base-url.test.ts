/** `semece sample` (interactive and --batch) refuses a --base-url with credentials as bad input, before reading or writing anything. */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import sample from '../../../../cli/commands/sample';
import { EXIT } from '../../../../cli/exit-codes';

async function refused(args: string[]): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const code = await sample(args, { out: () => {}, err: (s) => err.push(s), env: {} });
  return { code, err: err.join('\n') };
}

describe('semece sample --base-url', () => {
  const out = path.join(tmpdir(), `semece-base-url-${process.pid}.jsonl`);
  const common = ['--provider', 'vllm', '--model', 'm', '--dataset', 'missing.jsonl', '--out', out, '--base-url', 'http://bob:s3cretpw@gpu:8000/v1'];

  test.each([[[]], [['--batch', 'write', '--out-requests', `${out}.requests`]]])('with credentials: exit 2, the password masked, nothing written (%j)', async (extra) => {
    const { code, err } = await refused([...common, ...extra]);
    expect(code).toBe(EXIT.badInput);
    expect(err).toMatch(/^semece sample: --base-url contains a user name and password \(http:\/\/\*\*\*@gpu:8000\/v1\)\./);
    expect(err).not.toContain('s3cretpw');
    expect(existsSync(out)).toBe(false);
  });

  test('a provider without a default address needs --base-url', async () => {
    const { code, err } = await refused(['--provider', 'custom', '--model', 'm', '--dataset', 'missing.jsonl', '--out', out]);
    expect(code).toBe(EXIT.badInput);
    expect(err).toMatch(/^semece sample: --base-url is required for --provider custom, which has no default address/);
  });
});
