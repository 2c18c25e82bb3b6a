import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL, INSTALL_COMMANDS, observeChromium, planChromium, provideChromium, type ChromiumSituation,
} from '../../e2e/chromium-provision';

/** A machine with no Chromium anywhere, an ordinary user, and apt-get. */
const bare: ChromiumSituation = { envPathRunnable: false, aptGet: true, uid: 1000 };

describe('planChromium: which Chromium the browser tests use, or what they do without one', () => {
  it('uses CHROMIUM_PATH when it names an executable, before anything else', () => {
    expect(planChromium({ ...bare, envPath: '/opt/chrome/chrome', envPathRunnable: true, debian: DEBIAN_HEADLESS_SHELL, onPath: '/usr/local/bin/chromium' }))
      .toEqual({ action: 'use', path: '/opt/chrome/chrome', from: 'CHROMIUM_PATH' });
  });

  it('fails, naming the path, when CHROMIUM_PATH is set but not executable, even where Debian\'s Chromium exists or root could install', () => {
    for (const s of [{ ...bare, debian: DEBIAN_HEADLESS_SHELL }, { ...bare, uid: 0 }]) {
      const plan = planChromium({ ...s, envPath: '/nowhere/chromium', envPathRunnable: false });
      expect(plan.action).toBe('fail');
      if (plan.action === 'fail') expect(plan.message).toContain('CHROMIUM_PATH=/nowhere/chromium is not an executable file');
    }
  });

  it('treats an empty CHROMIUM_PATH as unset', () => {
    expect(planChromium({ ...bare, envPath: '', debian: DEBIAN_CHROMIUM })).toEqual({ action: 'use', path: DEBIAN_CHROMIUM, from: 'Debian' });
  });

  it("uses Debian's Chromium before one found on PATH", () => {
    for (const debian of [DEBIAN_HEADLESS_SHELL, DEBIAN_CHROMIUM]) {
      expect(planChromium({ ...bare, debian, onPath: '/usr/local/bin/chromium-headless-shell' })).toEqual({ action: 'use', path: debian, from: 'Debian' });
    }
  });

  it('uses a chromium on PATH when Debian\'s are missing, and never installs over it', () => {
    expect(planChromium({ ...bare, uid: 0, onPath: '/snap/bin/chromium' })).toEqual({ action: 'use', path: '/snap/bin/chromium', from: 'PATH' });
  });

  it("installs Debian's headless shell when no Chromium is found, running as root with apt-get", () => {
    expect(planChromium({ ...bare, uid: 0 })).toEqual({ action: 'install', commands: INSTALL_COMMANDS });
    expect(INSTALL_COMMANDS).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', 'chromium-headless-shell'],
    ]);
  });

  it('fails with what to do when not root', () => {
    for (const uid of [1000, undefined]) {
      const plan = planChromium({ ...bare, uid });
      expect(plan.action).toBe('fail');
      if (plan.action !== 'fail') continue;
      expect(plan.message).toContain('installing it needs root');
      expect(plan.message).toContain('apt-get install -y chromium-headless-shell');
      expect(plan.message).toContain('CHROMIUM_PATH');
    }
  });

  it('fails with what to do when root has no apt-get', () => {
    const plan = planChromium({ ...bare, uid: 0, aptGet: false });
    expect(plan.action).toBe('fail');
    if (plan.action === 'fail') {
      expect(plan.message).toContain('no apt-get');
      expect(plan.message).toContain('set CHROMIUM_PATH');
    }
  });
});

describe('observeChromium and provideChromium on a real file system', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chromium-provision-'));
  const fake = path.join(dir, 'chromium');
  writeFileSync(fake, '#!/bin/sh\n');
  chmodSync(fake, 0o755);
  const notExecutable = path.join(dir, 'not-executable');
  writeFileSync(notExecutable, '');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sees an executable CHROMIUM_PATH, a chromium on PATH (the headless shell first), and apt-get only where PATH has it', () => {
    const s = observeChromium({ CHROMIUM_PATH: fake, PATH: dir });
    expect(s).toMatchObject({ envPath: fake, envPathRunnable: true, onPath: fake, aptGet: false });
    const both = mkdtempSync(path.join(dir, 'both-'));
    for (const name of ['chromium', 'chromium-headless-shell']) {
      writeFileSync(path.join(both, name), '#!/bin/sh\n');
      chmodSync(path.join(both, name), 0o755);
    }
    expect(observeChromium({ PATH: both }).onPath).toBe(path.join(both, 'chromium-headless-shell'));
    expect(observeChromium({ CHROMIUM_PATH: notExecutable, PATH: '' })).toMatchObject({ envPathRunnable: false, onPath: undefined, aptGet: false });
  });

  it('returns CHROMIUM_PATH when it is executable and throws the plan message when it is not', () => {
    expect(provideChromium({ env: { CHROMIUM_PATH: fake, PATH: '' } })).toBe(fake);
    expect(() => provideChromium({ env: { CHROMIUM_PATH: notExecutable, PATH: '' } })).toThrow(`CHROMIUM_PATH=${notExecutable} is not an executable file`);
  });

  // PATH holds only the stand-in's folder (/usr/bin may have a real chromium), so it calls chmod by path.
  const CHMOD = ['/usr/bin/chmod', '/bin/chmod'].find((p) => existsSync(p));

  /** A PATH holding only a stand-in apt-get that records its calls; `install` puts a chromium-headless-shell beside it. */
  function fakeApt(installs: boolean) {
    const bin = mkdtempSync(path.join(dir, 'bin-'));
    const aptGet = path.join(bin, 'apt-get');
    const made = installs ? `[ "$1" = install ] && printf '#!/bin/sh\\n' > "${bin}/chromium-headless-shell" && ${CHMOD} 755 "${bin}/chromium-headless-shell"\n` : '';
    writeFileSync(aptGet, `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> "${bin}/calls"\n${made}exit 0\n`);
    chmodSync(aptGet, 0o755);
    // Pretend to be root on a machine without Debian's Chromium, whatever this machine is.
    const observe = (env: NodeJS.ProcessEnv) => ({ ...observeChromium(env), debian: undefined, uid: 0 });
    return { bin, observe, calls: () => readFileSync(path.join(bin, 'calls'), 'utf8') };
  }

  it('runs apt-get update and install non-interactively, says so, and returns the headless shell it installed', () => {
    const apt = fakeApt(true);
    const log: string[] = [];
    const found = provideChromium({ env: { PATH: apt.bin }, log: (l) => log.push(l), observe: apt.observe });
    expect(found).toBe(path.join(apt.bin, 'chromium-headless-shell'));
    expect(apt.calls()).toBe('noninteractive update -qq\nnoninteractive install -y -qq chromium-headless-shell\n');
    expect(log[0]).toContain("installing Debian's chromium-headless-shell package");
    expect(log).toContain('  $ apt-get install -y -qq chromium-headless-shell');
    expect(log.at(-1)).toBe(`Chromium installed: ${found}`);
  });

  it('fails with what to do when apt-get leaves no Chromium behind', () => {
    const apt = fakeApt(false);
    expect(() => provideChromium({ env: { PATH: apt.bin }, log: () => {}, observe: apt.observe }))
      .toThrow(/no Chromium was found afterwards.*CHROMIUM_PATH/);
    expect(apt.calls().split('\n').filter(Boolean)).toHaveLength(2);
  });
});
