/** `semece score` holds its scoring options to the limits the app's report reader holds a report to. */
import { describe, expect, test } from 'vitest';
import run from '../../../../cli/commands/score';
import { MAX_BINS, MAX_BOOTSTRAP_B } from '../../../../src/model/scoring-limits';

async function refusal(args: string[]): Promise<string> {
  const err: string[] = [];
  const code = await run(['--clustered', 'unused.jsonl', '--graded', 'unused.jsonl', ...args], { out: () => {}, err: (s) => err.push(s) });
  expect(code).not.toBe(0);
  return err.join('\n');
}

describe('semece score options are within model/scoring-limits.ts', () => {
  test('a B or bins the app would refuse to open is refused before any file is read', async () => {
    expect(await refusal(['--B', String(MAX_BOOTSTRAP_B + 1)])).toContain(`--B must be between 1 and ${MAX_BOOTSTRAP_B}, got ${MAX_BOOTSTRAP_B + 1}`);
    expect(await refusal(['--bins', String(MAX_BINS + 1)])).toContain(`--bins must be between 1 and ${MAX_BINS}, got ${MAX_BINS + 1}`);
  });
});
