import { expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { START_PORT } from '../../../scripts/start.ts';

/**
 * `npm start` (the README's start command) serves a production build, never Vite's dev server,
 * whose dependency optimisation reloads the page mid-task. The command runs as a person runs it,
 * on any free port and into a temporary folder (scripts/start.ts), and is stopped afterwards.
 */
test('the README promises the address npm start serves', () => {
  expect(readFileSync('README.md', 'utf8')).toMatch(new RegExp(`npm ci && npm start .*http://127\\.0\\.0\\.1:${START_PORT}/`));
});

test('npm start builds the app and serves the build: no Vite client, hashed bundles', { timeout: 240_000 }, async () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'semece-start-'));
  // As a person's shell runs it: without Vitest's variables (NODE_ENV=test would make Svelte compile its development build).
  const { VITEST: _v, VITEST_MODE: _m, VITEST_POOL_ID: _p, VITEST_WORKER_ID: _w, NODE_ENV: _n, ...env } = process.env;
  const child = spawn('npm', ['start'], { env: { ...env, SEMECE_PORT: '0', SEMECE_OUT_DIR: outDir }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const seen = (chunk: Buffer) => {
        output += chunk.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
        if (m) resolve(m[0]);
      };
      child.stdout.on('data', seen);
      child.stderr.on('data', seen);
      child.on('exit', (code) => reject(new Error(`npm start exited (${code}) before serving:\n${output}`)));
    });
    const html = await (await fetch(url)).text();
    expect(html).not.toContain('/@vite/client');
    expect(html).toContain('<div id="app">');
    const bundle = /src="\.\/(assets\/[\w-]+\.js)"/.exec(html);
    expect(bundle, `the page loads a hashed bundle:\n${html}`).not.toBeNull();
    const js = await fetch(new URL(bundle![1], url));
    expect(js.status).toBe(200);
    // A built bundle carries no hot-module-replacement code.
    expect(await js.text()).not.toContain('import.meta.hot');
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(outDir, { recursive: true, force: true });
  }
});
