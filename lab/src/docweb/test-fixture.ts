/**
 * A tiny DocWeb for tests, no apt or network needed: three sites (two sharing a host), a dozen
 * pages with a `<base href>` page, a meta-refresh root, a Latin-1 page, excluded trees and
 * symlinks, plus a fake {@link CommandRunner} whose `apt-get download` writes a dummy deb and
 * whose `dpkg-deb -x` copies the package's files from a source folder.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CommandResult, CommandRunner } from './apt.js';

/** A test page body: enough English words for the sampler, plus the given extra markup. */
export function fixturePage(title: string, extra = '', words = 'the device driver reads the sensor'): string {
  const text = Array.from({ length: 8 }, () => `This page explains how ${words} and what it means.`).join(
    ' ',
  );
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p>${extra}</body></html>\n`;
}

/** Files of each fake package, paths relative to the package root. */
export const FIXTURE_PACKAGES: Record<string, Record<string, string | Buffer>> = {
  'hw-doc': {
    'usr/share/doc/hw/html/index.html': fixturePage(
      'Kernel docs',
      '<a href="drivers/usb.html">USB</a> <a href="mm/index.html">Memory</a> <a href="https://www.shared.example/stats/manual/index.html">stats</a>',
    ),
    'usr/share/doc/hw/html/drivers/usb.html': fixturePage('USB', '<a href="pci.html">PCI</a>'),
    'usr/share/doc/hw/html/drivers/pci.html': fixturePage('PCI bus', '<a href="../index.html">up</a>'),
    'usr/share/doc/hw/html/drivers/index.html': fixturePage('Drivers'),
    'usr/share/doc/hw/html/mm/index.html': fixturePage(
      'Memory management',
      '',
      'the allocator frees pages of memory',
    ),
    'usr/share/doc/hw/html/giant/gen1.html': fixturePage('Generated 1'),
    'usr/share/doc/hw/html/giant/deeper/gen2.html': fixturePage('Generated 2'),
    'usr/share/doc/hw/html/api/class-use/Thing.html': fixturePage('Uses of Thing'),
    'usr/share/doc/hw/html/style.css': 'body { color: black }',
    'usr/share/doc/hw/html/robots.txt': 'User-agent: *\nDisallow: /\n',
  },
  'stats-doc': {
    'usr/share/doc/stats/index.html': fixturePage(
      'Statistics manual',
      '<a href="regression.html">Regression</a> <a href="sub/base.html">Base</a>',
      'the regression model estimates the variance',
    ),
    'usr/share/doc/stats/regression.html': fixturePage(
      'Linear regression',
      '<a href="https://hw.example/drivers/usb.html#top">usb</a>',
      'least squares regression estimates coefficients',
    ),
    'usr/share/doc/stats/sub/base.html': fixturePage(
      'Base href page',
      '<base href="../"><a href="regression.html">regression</a>',
      'the sample mean and the sample variance',
    ),
    'usr/share/doc/stats/a b%c.html': fixturePage('Odd name', '', 'the quantile of a distribution'),
  },
  'music-doc': {
    'usr/share/music/html/index.html':
      '<html><head><meta http-equiv="refresh" content="0;URL=Documentation/index.html"><title>Redirecting</title></head><body>Redirecting</body></html>\n',
    'usr/share/music/html/Documentation/index.html': fixturePage(
      'Music notation',
      '<a href="notes.html">notes</a>',
      'the composer writes notes on a staff',
    ),
    'usr/share/music/html/Documentation/notes.html': Buffer.from(
      fixturePage('Notes', '', 'the chord sounds nice in the caf\u00e9').replace(
        '<head>',
        '<head><meta charset="iso-8859-1">',
      ),
      'latin1',
    ),
    'usr/share/music/html/tiny.html': '<html><head><title>tiny</title></head><body>short</body></html>',
  },
};

/** The fixture's manifest (sites in this order). */
export const FIXTURE_MANIFEST = {
  sites: [
    {
      package: 'hw-doc',
      host: 'hw.example',
      prefix: '/',
      rootInPackage: '/usr/share/doc/hw/html',
      topic: 'Operating systems',
      exclude: ['giant/'],
      excludeDirNames: ['class-use'],
      robotsTxt: 'User-agent: *\nDisallow:\n',
    },
    {
      package: 'stats-doc',
      host: 'www.shared.example',
      prefix: '/stats/manual/',
      rootInPackage: '/usr/share/doc/stats',
      topic: 'Statistics',
    },
    {
      package: 'music-doc',
      host: 'www.shared.example',
      prefix: '/music/',
      rootInPackage: '/usr/share/music/html',
      topic: 'Music',
      heavy: true,
    },
  ],
};

/** Topic files of the fixture. */
export const FIXTURE_TOPICS: Record<string, string> = {
  'hardware.yaml': `name: hardware
category: Computers/Hardware
keywords: [hardware, driver]
keyphrases: [device drivers]
relevant:
  - { host: hw.example, prefix: /drivers/ }
seeds: [https://hw.example/drivers/usb.html]
`,
  'statistics.yaml': `name: statistics
keywords: [statistics]
relevant:
  - { host: www.shared.example, prefix: /stats/manual/ }
except:
  - { host: www.shared.example, prefix: /stats/manual/sub/ }
seeds: [https://www.shared.example/stats/manual/index.html]
`,
};

/** apt's package list of the fixture (`apt-cache dumpavail`): the doc packages, a tool and a library. */
export const FIXTURE_PACKAGE_LIST = `Package: hw-doc
Version: 1.0-1
Section: doc
Size: 1000
Installed-Size: 10
Description: kernel hardware documentation
Description-md5: 11111111111111111111111111111111
Tag: hardware::sensor, role::documentation
Homepage: https://hw.example/

Package: sensors-tool
Version: 2.1-3
Section: utils
Size: 2000
Installed-Size: 20
Depends: libsense1 (>= 1.0), hw-doc | stats-doc
Suggests: music-doc
Description: reads hardware sensors
Description-md5: 22222222222222222222222222222222
Tag: hardware::sensor, role::program
Homepage: https://www.sensors.example/

Package: libsense1
Version: 1.0-1
Section: debug
Size: 500
Installed-Size: 5
Description: sensor library
Description-md5: 33333333333333333333333333333333

Package: stats-doc
Version: 1.0-1
Section: doc
Size: 1000
Installed-Size: 10
Description: statistics manual
Description-md5: 44444444444444444444444444444444
Tag: field::statistics, role::documentation

Package: music-doc
Version: 1.0-1
Section: doc
Size: 1000
Installed-Size: 10
Description: music notation manual
Description-md5: 55555555555555555555555555555555
`;

/** English translations of the fixture's descriptions (Translation-en). */
export const FIXTURE_TRANSLATIONS = `Package: sensors-tool
Description-md5: 22222222222222222222222222222222
Description-en: reads hardware sensors
 The tool reads temperature and fan sensors of the mainboard.
 .
 It supports:
   * lm75
   * w83627

Package: hw-doc
Description-md5: 11111111111111111111111111111111
Description-en: kernel hardware documentation
 Documentation of device drivers and buses.
`;

/** A fixture on disk. */
export interface DocwebFixture {
  root: string;
  cacheDir: string;
  manifestPath: string;
  topicsDir: string;
  /** An apt lists folder that holds a Packages file. */
  aptListsDir: string;
  /** Every command the fake runner was asked to run, as `command arg1 arg2`. */
  calls: string[];
  run: CommandRunner;
  cleanup(): void;
}

/** What most tests pass to `buildDocweb`: the fixture's folders and runner, no hub, no log. */
export function fixtureBuildOptions(fx: DocwebFixture) {
  return {
    cacheDir: fx.cacheDir,
    manifestPath: fx.manifestPath,
    topicsDir: fx.topicsDir,
    run: fx.run,
    aptListsDir: fx.aptListsDir,
    shouldBuildHub: false,
    log: () => {},
  };
}

const ok = (stdout = ''): CommandResult => ({ code: 0, stdout, stderr: '' });

/** Writes the fixture's package sources, manifest and topics into a new temporary folder. */
export function makeDocwebFixture(): DocwebFixture {
  const root = mkdtempSync(join(tmpdir(), 'tres-docweb-'));
  const sourceDir = join(root, 'sources');
  for (const [pkg, files] of Object.entries(FIXTURE_PACKAGES)) {
    for (const [rel, body] of Object.entries(files)) {
      const path = join(sourceDir, pkg, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, body);
    }
  }
  // An absolute symlink into the "system" and one escaping the package: sanitised at extraction.
  symlinkSync('/etc/hostname', join(sourceDir, 'hw-doc/usr/share/doc/hw/html/host.html'));
  symlinkSync(
    '/usr/share/doc/hw/html/drivers/usb.html',
    join(sourceDir, 'hw-doc/usr/share/doc/hw/html/usb-link.html'),
  );
  const manifestPath = join(root, 'sites.json');
  writeFileSync(manifestPath, JSON.stringify(FIXTURE_MANIFEST, null, 1));
  const topicsDir = join(root, 'topics');
  mkdirSync(topicsDir);
  for (const [name, text] of Object.entries(FIXTURE_TOPICS)) writeFileSync(join(topicsDir, name), text);
  const aptListsDir = join(root, 'lists');
  mkdirSync(aptListsDir);
  writeFileSync(join(aptListsDir, 'deb.example_dists_bookworm_main_binary-amd64_Packages'), '');
  writeFileSync(
    join(aptListsDir, 'deb.example_dists_bookworm_main_i18n_Translation-en'),
    FIXTURE_TRANSLATIONS,
  );
  const calls: string[] = [];
  const debName = (pkg: string) => `${pkg}_1.0-1_all.deb`;
  const run: CommandRunner = async (command, args, options = {}) => {
    calls.push([command, ...args].join(' '));
    if (command === 'apt-get' && args[0] === 'update') return ok();
    if (command === 'apt-get' && args[0] === 'download' && args[1] === '--print-uris') {
      const unknown = args.slice(2).filter((p) => !FIXTURE_PACKAGES[p]);
      if (unknown.length > 0)
        return { code: 100, stdout: '', stderr: `E: Unable to locate package ${unknown[0]}` };
      const lines = args
        .slice(2)
        .map((p) => `'http://deb.example/pool/${debName(p)}' ${debName(p)} 1000 SHA256:00`);
      return ok(`${lines.join('\n')}\n`);
    }
    if (command === 'apt-get' && args[0] === 'download') {
      // Like apt: every known package is fetched, an unknown one fails the whole call.
      const unknown = args.slice(1).filter((p) => !FIXTURE_PACKAGES[p]);
      for (const p of args.slice(1).filter((q) => FIXTURE_PACKAGES[q]))
        writeFileSync(join(options.cwd ?? '.', debName(p)), Buffer.alloc(1000));
      if (unknown.length > 0)
        return { code: 100, stdout: '', stderr: `E: Unable to locate package ${unknown[0]}` };
      return ok();
    }
    if (command === 'apt-cache' && args[0] === 'dumpavail') return ok(FIXTURE_PACKAGE_LIST);
    if (command === '/usr/lib/apt/apt-helper' && args[0] === 'cat-file')
      return ok(readFileSync(args[1] as string, 'utf8'));
    if (command === 'dpkg-deb' && args[0] === '-x') {
      const pkg = (args[1] as string).split('/').pop()?.split('_')[0] as string;
      cpSync(join(sourceDir, pkg), args[2] as string, { recursive: true, verbatimSymlinks: true });
      return ok();
    }
    return { code: 127, stdout: '', stderr: `unexpected command ${command}` };
  };
  return {
    root,
    cacheDir: join(root, 'cache'),
    manifestPath,
    topicsDir,
    aptListsDir,
    calls,
    run,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
