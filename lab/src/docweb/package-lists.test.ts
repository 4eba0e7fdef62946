import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CommandRunner, runCommand } from './apt.js';
import { compareDebianVersions } from './debian-version.js';
import { parsePackages, readAvailablePackages } from './package-lists.js';

describe('compareDebianVersions', () => {
  const ordered = [
    '1.0~rc1',
    '1.0',
    '1.0-1',
    '1.0-1+deb12u1',
    '1.0-2',
    '1.0a',
    '1.0+b1',
    '1.2',
    '1.10',
    '2:0.1',
  ];
  it('orders versions as Debian policy does (tilde first, numbers as numbers, epochs first)', () => {
    for (let i = 0; i + 1 < ordered.length; i++) {
      const [a, b] = [ordered[i] as string, ordered[i + 1] as string];
      expect(compareDebianVersions(a, b), `${a} < ${b}`).toBeLessThan(0);
      expect(compareDebianVersions(b, a), `${b} > ${a}`).toBeGreaterThan(0);
    }
    expect(compareDebianVersions('1.02-1', '1.2-1')).toBe(0);
  });

  it('agrees with dpkg --compare-versions where dpkg is installed', () => {
    let hasDpkg = true;
    try {
      execFileSync('dpkg', ['--version'], { stdio: 'ignore' });
    } catch {
      hasDpkg = false;
    }
    if (!hasDpkg) return;
    const pairs: [string, string][] = [
      ['2.36.1-8+deb12u1', '2.36.1-8'],
      ['1:2.3~beta', '1:2.3'],
      ['3.0.11-1~deb12u2', '3.0.11-1'],
      ['0.9.9+git20230101', '0.9.10'],
      ['5.2.15-2+b7', '5.2.15-2+b2'],
    ];
    for (const [a, b] of pairs) {
      const sign = Math.sign(compareDebianVersions(a, b));
      const dpkgLess = (() => {
        try {
          execFileSync('dpkg', ['--compare-versions', a, 'lt', b]);
          return true;
        } catch {
          return false;
        }
      })();
      expect(sign < 0, `${a} vs ${b}`).toBe(dpkgLess);
    }
  });
});

describe('parsePackages', () => {
  // apt-cache dumpavail lists the -security stanza (no Tag:) before the release's one.
  const dump = `Package: foo-doc
Version: 1.2-3+deb12u1
Section: doc
Description: Foo documentation (security update)

Package: foo-doc
Version: 1.2-3
Section: doc
Tag: hardware::storage, role::documentation
Description: Foo documentation

Package: bar
Version: 2.0-1
Tag: devel::lang:python
Description: Bar

Package: bar
Version: 2.1-1~bpo12+1
Description: Bar backport
`;

  it('keeps the stanza with the highest version and takes Tag from another stanza when it has none', () => {
    const packages = parsePackages(dump);
    const foo = packages.get('foo-doc');
    expect(foo?.version).toBe('1.2-3+deb12u1');
    expect(foo?.summary).toBe('Foo documentation (security update)');
    expect(foo?.tags).toEqual(['hardware::storage', 'role::documentation']);
    expect(packages.get('bar')?.version).toBe('2.1-1~bpo12+1');
    expect(packages.get('bar')?.tags).toEqual(['devel::lang:python']);
  });

  it('gives the same packages whatever order apt lists the stanzas in', () => {
    const stanzas = dump.trim().split('\n\n');
    const reversed = [...stanzas].reverse().join('\n\n');
    expect([...parsePackages(reversed)].sort()).toEqual([...parsePackages(dump)].sort());
  });
});

describe('readAvailablePackages', () => {
  it('takes the debtags of a security-update candidate from the release list beside dumpavail', async () => {
    // dumpavail prints the candidate only: here the -security stanza, which has no Tag field.
    const dumpavail = `Package: foo-doc
Version: 1.2-3+deb12u1
Section: doc
Description: Foo documentation
`;
    const dir = mkdtempSync(join(tmpdir(), 'tres-apt-lists-'));
    try {
      writeFileSync(
        join(dir, 'deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages'),
        `Package: foo-doc
Version: 1.2-3
Section: doc
Tag: hardware::storage, role::documentation
Description: Foo documentation
`,
      );
      // apt-cache answers from a fixed text; apt-helper really decompresses the list file.
      const run: CommandRunner = (command, args, options) =>
        command === 'apt-cache'
          ? Promise.resolve({ code: 0, stdout: dumpavail, stderr: '' })
          : runCommand(command, args, options);
      let hasAptHelper = true;
      try {
        execFileSync('/usr/lib/apt/apt-helper', ['-h'], { stdio: 'ignore' });
      } catch {
        hasAptHelper = false;
      }
      if (!hasAptHelper) return;
      const foo = (await readAvailablePackages(run, dir)).get('foo-doc');
      expect(foo?.version).toBe('1.2-3+deb12u1');
      expect(foo?.tags).toEqual(['hardware::storage', 'role::documentation']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
