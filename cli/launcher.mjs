#!/usr/bin/env node
/**
 * `npm run semece -- <command> …`: the CLI (cli/semece.ts) run from a bundle of cli/ and src/
 * that esbuild builds once, instead of compiling each TypeScript module on every start as tsx
 * does; a start then costs a plain node start (about 0.1 s instead of 0.5 s).
 *
 * The bundle lives in node_modules/.cache/semece-cli/ (or $SEMECE_CLI_CACHE, which must lie
 * inside the project's node_modules so packages resolve), one chunk per command, packages left
 * to node_modules. manifest.json lists every file it was built from with its size and
 * modification time: a changed, added or removed source or command file rebuilds it before the
 * command runs (under a second), so the bundle never runs stale code. A build goes to a fresh
 * directory and the manifest is replaced in one rename, so two commands started at once never
 * see half a bundle. Where esbuild cannot build, the CLI runs from source through tsx.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cli = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(cli);
const commandsDir = path.join(cli, 'commands');
const cache = process.env.SEMECE_CLI_CACHE ? path.resolve(process.env.SEMECE_CLI_CACHE) : path.join(root, 'node_modules', '.cache', 'semece-cli');
const manifestFile = path.join(cache, 'manifest.json');
/** Build directories older than this are removed by the next build (a running command may still read a newer one). */
const STALE_MS = 60 * 60 * 1000;

/** The command files, as cli/semece.ts lists them. */
function commandNames() {
  return readdirSync(commandsDir)
    .filter((f) => /^[a-z][a-z0-9-]*\.ts$/.test(f))
    .map((f) => f.slice(0, -3))
    .sort();
}

function stamp(file) {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
}

/** The manifest of a bundle built from exactly the files as they are now, or null. */
function currentManifest(names) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (manifest.commands.join('\n') !== names.join('\n')) return null;
    for (const [file, was] of Object.entries(manifest.inputs)) if (stamp(file) !== was) return null;
    statSync(path.join(manifest.dir, 'entry.js'));
  } catch {
    return null;
  }
  return manifest;
}

async function build(names) {
  const { build: esbuild } = await import('esbuild');
  mkdirSync(cache, { recursive: true });
  const dir = path.join(cache, `build-${Date.now()}-${process.pid}`);
  mkdirSync(dir);
  const entry = path.join(dir, 'entry.ts');
  const q = JSON.stringify;
  writeFileSync(
    entry,
    [
      `import { main } from ${q(path.join(cli, 'semece.ts'))};`,
      'const commands = {',
      ...names.map((n) => `  ${q(n)}: () => import(${q(path.join(commandsDir, `${n}.ts`))}),`),
      '};',
      `export const run = (argv) => main(argv, { commandsDir: ${q(commandsDir)}, load: (name) => commands[name]() });`,
      '',
    ].join('\n'),
  );
  const result = await esbuild({
    // The bootstrap's worker thread beside the commands (cli/bootstrap-thread-runner.ts finds it there).
    entryPoints: { entry, 'bootstrap-thread': path.join(cli, 'bootstrap-thread.ts') },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir: dir,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(root, input);
    if (file !== entry) inputs[file] = stamp(file);
  }
  const manifest = { dir, commands: names, inputs };
  const temporary = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(manifest));
  renameSync(temporary, manifestFile);
  for (const other of readdirSync(cache)) {
    const full = path.join(cache, other);
    if (!other.startsWith('build-') || full === dir) continue;
    try {
      if (Date.now() - statSync(full).mtimeMs > STALE_MS) rmSync(full, { recursive: true, force: true });
    } catch {
      // Another command removed it first.
    }
  }
  return manifest;
}

async function runner() {
  const names = commandNames();
  try {
    const manifest = currentManifest(names) ?? (await build(names));
    return (await import(pathToFileURL(path.join(manifest.dir, 'entry.js')).href)).run;
  } catch (e) {
    if (process.env.SEMECE_DEBUG === '1') process.stderr.write(`semece: running from source (${e?.message ?? e})\n`);
    const { register } = await import('tsx/esm/api');
    register();
    return (await import(pathToFileURL(path.join(cli, 'semece.ts')).href)).main;
  }
}

const run = await runner();
process.exitCode = await run(process.argv.slice(2));
