import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// Inside node_modules, as the launcher requires, and apart from the bundle `npm run semece` uses.
const cache = join(root, 'node_modules/.cache', `semece-cli-test-${process.pid}`);
const manifestFile = join(cache, 'manifest.json');
const sample = (name: string) => join(root, 'tests/fixtures/reference-sample', name);

function run(args: string[], viaLauncher = true, cwd = root): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = viaLauncher ? [join(root, 'cli/launcher.mjs'), ...args] : ['--import', 'tsx', join(root, 'cli/semece.ts'), ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd, env: { ...process.env, SEMECE_CLI_CACHE: cache }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const manifest = () => JSON.parse(readFileSync(manifestFile, 'utf8')) as { dir: string; commands: string[]; inputs: Record<string, string> };

afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe('npm run semece: the launcher runs the CLI from a bundle kept fresh', () => {
  it('builds the bundle once and prints what the CLI run from source prints', async () => {
    const bundled = await run(['--help']);
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toBe((await run(['--help'], false)).stdout);
    const built = manifest();
    expect(built.commands).toContain('score');
    expect(Object.keys(built.inputs).some((f) => f.endsWith('src/pipeline/score-stage.ts'))).toBe(true);
    expect((await run(['--help'])).code).toBe(0);
    expect(manifest().dir).toBe(built.dir);
  });

  it('semece score gives the same document, byte for byte, as from source (its bootstrap on the bundle’s thread, from source on the main thread)', async () => {
    const args = ['score', '--clustered', sample('clustered.jsonl'), '--graded', sample('graded.jsonl'), '--B', '200'];
    const [bundled, source] = await Promise.all([run(args), run(args, false)]);
    expect(existsSync(join(manifest().dir, 'bootstrap-thread.js'))).toBe(true);
    // The reference sample has 2 excluded questions: partial (3).
    expect(bundled.code).toBe(3);
    expect(source.code).toBe(3);
    expect(bundled.stdout).toBe(source.stdout);
    expect(bundled.stderr).toBe(source.stderr);
  });

  it('a source file that changed since the build rebuilds the bundle before the command runs', async () => {
    const before = manifest();
    const [file] = Object.keys(before.inputs);
    writeFileSync(manifestFile, JSON.stringify({ ...before, inputs: { ...before.inputs, [file]: '0:0' } }));
    const r = await run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
    const after = manifest();
    expect(after.dir).not.toBe(before.dir);
    expect(after.inputs[file]).toBe(before.inputs[file]);
    expect(existsSync(join(after.dir, 'entry.js'))).toBe(true);
  });

  it('finds the shipped models from its bundle, run from another folder: a no-key sample and an entailment clustering', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'semece-launcher-models-'));
    try {
      writeFileSync(join(dir, 'q.jsonl'), JSON.stringify({ id: 'demo-04', question: 'How many sides does a hexagon have?', answer: '6' }) + '\n');
      const sampled = await run(['sample', '--provider', 'in-browser', '--model', 'tiny-causal-lm', '--dataset', 'q.jsonl', '--samples', '4', '--out', 's.jsonl'], true, dir);
      expect(sampled.stderr).not.toMatch(/could not load/);
      expect(sampled.code).toBe(0);
      const clustered = await run(['cluster', '--method', 'entailment', '--model', 'tiny-nli', '--in', 's.jsonl', '--out', 'c.jsonl'], true, dir);
      expect(clustered.code).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'c.jsonl'), 'utf8').split('\n')[0]).n_samples).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
