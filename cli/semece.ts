/**
 * `semece <command> [options]`: the CLI dispatcher. Every file cli/commands/<name>.ts is a
 * command (default export `run(argv, io) → exit code`, and a `USAGE` string), loaded only when
 * asked for, so adding a command is adding a file. `semece` alone or `--help` lists them.
 *
 * Exit codes (cli/exit-codes.ts): whatever the command returns (0 ok, 1 failed, 2 bad usage or
 * input, 3 partial); 2 for an unknown command. An unexpected exception prints one line (no stack
 * trace unless SEMECE_DEBUG=1) and exits 1.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.ts';
import { envScrubber } from './command-io.ts';
import { errorInfo, errorMessage, INTERNAL } from '../src/model/app-error.ts';

type Command = (argv: string[]) => Promise<number> | number;

const sourceCommandsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'commands');

/**
 * Where the commands are listed (their .ts sources, for the names and summaries) and how one is
 * loaded: from source here, from the launcher's bundle under `npm run semece` (cli/launcher.mjs).
 */
export interface Dispatch {
  commandsDir: string;
  load(name: string): Promise<{ default?: Command }>;
}

const fromSource: Dispatch = {
  commandsDir: sourceCommandsDir,
  load: (name) => import(pathToFileURL(path.join(sourceCommandsDir, `${name}.ts`)).href),
};

let commandsDir = sourceCommandsDir;

function commandNames(): string[] {
  try {
    return readdirSync(commandsDir)
      .filter((f) => /^[a-z][a-z0-9-]*\.ts$/.test(f))
      .map((f) => f.slice(0, -3))
      .sort();
  } catch {
    return [];
  }
}

/** The first sentence of a command file's leading doc comment, read without importing it. */
function summary(name: string): string {
  try {
    const text = readFileSync(path.join(commandsDir, `${name}.ts`), 'utf8');
    const m = /^\s*\/\*\*\s*\n?\s*\*?\s*(.+)/.exec(text);
    if (!m) return '';
    const line = m[1].replace(/^`[^`]*`:\s*/, '').trim();
    return line.length > 70 ? line.slice(0, 69) + '…' : line;
  } catch {
    return '';
  }
}

function usage(): string {
  const names = commandNames();
  const width = Math.max(0, ...names.map((n) => n.length));
  return [
    'usage: semece <command> [options]     (npm run --silent semece -- <command> …)',
    '',
    'commands:',
    ...names.map((n) => `  ${n.padEnd(width)}  ${summary(n)}`),
    '',
    "Run 'semece <command> --help' for a command's options.",
    '',
    EXIT_CODES_HELP,
  ].join('\n');
}

export async function main(argv: string[], dispatch: Dispatch = fromSource): Promise<number> {
  commandsDir = dispatch.commandsDir;
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const out = usage();
    if (name === undefined) {
      process.stderr.write(out + '\n');
      return EXIT.badInput;
    }
    process.stdout.write(out + '\n');
    return EXIT.ok;
  }
  if (!commandNames().includes(name)) {
    process.stderr.write(`semece: unknown command '${name}'\n\n${usage()}\n`);
    return EXIT.badInput;
  }
  let run: Command;
  try {
    const mod = await dispatch.load(name);
    if (typeof mod.default !== 'function') throw new Error(`cli/commands/${name}.ts has no default export`);
    run = mod.default;
  } catch (e) {
    process.stderr.write(envScrubber(process.env)(`semece ${name}: could not load the command: ${errorMessage(e)}`) + '\n');
    return EXIT.failed;
  }
  try {
    return await run(rest);
  } catch (e) {
    // The one error shape: its kind and where are printed when it has them, its detail and stack
    // with SEMECE_DEBUG=1. An unexpected error can quote a request: it is printed through the one scrubber too.
    const info = errorInfo(e);
    const scrub = envScrubber(process.env);
    const kind = info.kind === INTERNAL ? '' : ` (${info.kind}${info.where ? `, ${info.where}` : ''})`;
    process.stderr.write(scrub(`semece ${name}: unexpected error: ${info.message}${kind}`) + '\n');
    const stack = (e as Error | undefined)?.stack;
    if (process.env.SEMECE_DEBUG === '1' && info.detail) process.stderr.write(scrub(`detail: ${info.detail}`) + '\n');
    if (process.env.SEMECE_DEBUG === '1' && stack) process.stderr.write(scrub(stack) + '\n');
    return EXIT.failed;
  }
}

const invoked = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invoked) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
