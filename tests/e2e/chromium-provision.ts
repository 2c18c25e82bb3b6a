import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

/**
 * Finding (or installing) the Chromium the browser tests drive, so that `npm test` on a fresh
 * Debian machine needs no manual step. The decision is a pure function of what was observed
 * (`planChromium`), so it is tested without touching the machine; `provideChromium` observes
 * the machine, carries the plan out, and looks again after an install.
 *
 * Chromium's headless shell comes first: the same Blink and V8 as the full browser, run headless
 * without the desktop browser's layers (the browser Playwright itself runs headless tests in).
 * It runs the browser tests with about 15% less CPU: measured on this project's 64 browser files,
 * 775 s against 905 s of CPU (Chromium 150, two cores), a new context with a page about 0.45 s
 * against 0.77 s. Debian packages it as chromium-headless-shell; the full chromium is used where
 * it is the one installed, and CHROMIUM_PATH picks any other.
 */

/** Debian's Chromium programs, in the order they are used when both are installed. */
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
const DEBIAN_PATHS = [DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM];
/** The same programs looked for by name on PATH, in the same order. */
const PATH_NAMES = ['chromium-headless-shell', 'chromium'];

/** What the machine looks like, as far as the decision is concerned. */
export interface ChromiumSituation {
  /** CHROMIUM_PATH as set (empty counts as unset). */
  envPath?: string;
  /** Whether CHROMIUM_PATH names an executable file. */
  envPathRunnable: boolean;
  /** The first of Debian's Chromium programs that is an executable file (DEBIAN_HEADLESS_SHELL, then DEBIAN_CHROMIUM). */
  debian?: string;
  /** The first executable `chromium-headless-shell`, else `chromium`, on PATH. */
  onPath?: string;
  /** The effective user id (undefined where the platform has none). */
  uid?: number;
  /** Whether `apt-get` is on PATH. */
  aptGet: boolean;
}

export type ChromiumPlan =
  | { action: 'use'; path: string; from: 'CHROMIUM_PATH' | 'Debian' | 'PATH' }
  | { action: 'install'; commands: string[][] }
  | { action: 'fail'; message: string };

export const INSTALL_COMMANDS: string[][] = [
  ['apt-get', 'update', '-qq'],
  ['apt-get', 'install', '-y', '-qq', 'chromium-headless-shell'],
];

const LOOKED = `looked at CHROMIUM_PATH, ${DEBIAN_PATHS.join(' and ')}, and ${PATH_NAMES.map((n) => `\`${n}\``).join(' or ')} on PATH`;

const HOW_TO_FIX =
  'Install Debian\'s headless Chromium (as root: `apt-get update && apt-get install -y chromium-headless-shell`, ' +
  'or `sudo apt-get install -y chromium-headless-shell`), or set CHROMIUM_PATH to a Chromium or Chrome executable, ' +
  'then run `npm test` again.';

export function planChromium(s: ChromiumSituation): ChromiumPlan {
  if (s.envPath) {
    // An explicit choice is never overridden by a guess or an install.
    if (s.envPathRunnable) return { action: 'use', path: s.envPath, from: 'CHROMIUM_PATH' };
    return {
      action: 'fail',
      message: `CHROMIUM_PATH=${s.envPath} is not an executable file. Point CHROMIUM_PATH at a Chromium executable, or unset it to use ${DEBIAN_PATHS.join(' or ')}.`,
    };
  }
  if (s.debian) return { action: 'use', path: s.debian, from: 'Debian' };
  if (s.onPath) return { action: 'use', path: s.onPath, from: 'PATH' };
  if (s.uid === 0 && s.aptGet) return { action: 'install', commands: INSTALL_COMMANDS };
  const why = s.uid !== 0
    ? 'installing it needs root, and the tests do not run as root'
    : 'there is no apt-get on this machine to install it with';
  return { action: 'fail', message: `The browser tests need Chromium and found none (${LOOKED}); ${why}. ${HOW_TO_FIX}` };
}

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, pathVar = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (runnable(file)) return file;
  }
  return undefined;
}

export function observeChromium(env: NodeJS.ProcessEnv = process.env): ChromiumSituation {
  const envPath = env.CHROMIUM_PATH || undefined;
  return {
    envPath,
    envPathRunnable: envPath !== undefined && runnable(envPath),
    debian: DEBIAN_PATHS.find(runnable),
    onPath: PATH_NAMES.map((name) => onPath(name, env.PATH)).find((found) => found !== undefined),
    uid: process.getuid?.(),
    aptGet: onPath('apt-get', env.PATH) !== undefined,
  };
}

function install(commands: string[][], env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  log(`Chromium not found (${LOOKED}); installing Debian's chromium-headless-shell package for the browser tests:`);
  for (const [cmd, ...args] of commands) {
    log(`  $ ${[cmd, ...args].join(' ')}`);
    const r = spawnSync(cmd, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) {
      const how = r.error ? r.error.message : `exit status ${r.status ?? r.signal}`;
      throw new Error(`\`${[cmd, ...args].join(' ')}\` failed (${how}). ${HOW_TO_FIX}`);
    }
  }
}

export interface ProvideOptions {
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** How the machine is looked at; tests pass one that pretends /usr/bin/chromium is absent. */
  observe?: (env: NodeJS.ProcessEnv) => ChromiumSituation;
}

/** The path of a Chromium to launch, installing Debian's package first where that is possible. */
export function provideChromium({
  env = process.env,
  log = (line) => process.stdout.write(`${line}\n`),
  observe = observeChromium,
}: ProvideOptions = {}): string {
  const plan = planChromium(observe(env));
  if (plan.action === 'use') return plan.path;
  if (plan.action === 'fail') throw new Error(plan.message);
  install(plan.commands, env, log);
  // aptGet: false, so that an install that leaves no Chromium fails instead of installing again.
  const after = planChromium({ ...observe(env), aptGet: false });
  if (after.action !== 'use') {
    throw new Error(`apt-get installed chromium-headless-shell, yet no Chromium was found afterwards (${LOOKED}). ${HOW_TO_FIX}`);
  }
  log(`Chromium installed: ${after.path}`);
  return after.path;
}
