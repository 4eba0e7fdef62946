import { existsSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from 'tres-crawler';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDocweb, type DocwebBuildOptions } from './build.js';
import { cacheLayout, EXTRACTED_MARKER, packageDir } from './cache-layout.js';
import { DocwebDb } from './docweb-db.js';
import { type DocwebFixture, makeDocwebFixture } from './test-fixture.js';

let fx: DocwebFixture;
let lines: string[];
const options = (extra: Partial<DocwebBuildOptions> = {}): DocwebBuildOptions => ({
  cacheDir: fx.cacheDir,
  manifestPath: fx.manifestPath,
  topicsDir: fx.topicsDir,
  run: fx.run,
  aptListsDir: fx.aptListsDir,
  log: (line) => lines.push(line),
  shouldBuildHub: false,
  ...extra,
});

beforeEach(() => {
  fx = makeDocwebFixture();
  lines = [];
});
afterEach(() => fx.cleanup());

describe('buildDocweb', () => {
  it('downloads, extracts and indexes every package, and says how much it downloads first', async () => {
    const summary = await buildDocweb(options());
    expect(summary.fetch).toMatchObject({
      downloaded: 3,
      extracted: 3,
      alreadyExtracted: 0,
      downloadBytes: 3000,
    });
    expect(lines.findIndex((l) => l.includes('will download 0.0 MB (3 packages'))).toBeLessThan(
      lines.findIndex((l) => l.startsWith('download')),
    );
    expect(summary.counts).toEqual({
      sites: 3,
      pages: 14,
      excludedPages: 3,
      labelled: { hardware: 3, statistics: 3 },
    });
    const db = new DocwebDb(fx.cacheDir);
    try {
      expect(db.sites().map((s) => [s.host, s.prefix, s.pages])).toEqual([
        ['hw.example', '/', 6],
        ['www.shared.example', '/stats/manual/', 4],
        ['www.shared.example', '/music/', 4],
      ]);
      expect(db.sites()[0]?.excludedTrees).toEqual(['api/class-use/', 'giant/']);
      expect(db.pageByUrl('https://www.shared.example/stats/manual/a%20b%25c.html')?.path).toBe('a b%c.html');
      expect(db.labelCounts()).toEqual({ hardware: 3, statistics: 3 });
    } finally {
      db.close();
    }
  });

  it('keeps symlinks inside the package: absolute ones re-rooted, a dangling one left out of the pages', async () => {
    await buildDocweb(options());
    const html = join(packageDir(cacheLayout(fx.cacheDir), 'hw-doc'), 'usr/share/doc/hw/html');
    expect(readlinkSync(join(html, 'usb-link.html'))).toBe('drivers/usb.html');
    expect(readlinkSync(join(html, 'host.html'))).not.toMatch(/^\//);
    const db = new DocwebDb(fx.cacheDir);
    try {
      expect(db.pageByUrl('https://hw.example/usb-link.html')).toBeDefined();
      expect(db.pageByUrl('https://hw.example/host.html')).toBeUndefined(); // /etc/hostname is not in the package
    } finally {
      db.close();
    }
  });

  it('does nothing the second time: no apt call, tables reused', async () => {
    await buildDocweb(options());
    fx.calls.length = 0;
    const again = await buildDocweb(options());
    expect(fx.calls).toEqual([]);
    expect(again.isIndexReused).toBe(true);
    expect(again.counts.pages).toBe(14);
  });

  it('resumes a partial build: only the package without its marker is fetched again', async () => {
    await buildDocweb(options());
    const layout = cacheLayout(fx.cacheDir);
    rmSync(join(packageDir(layout, 'stats-doc'), EXTRACTED_MARKER));
    rmSync(join(layout.debsDir, 'stats-doc_1.0-1_all.deb'));
    fx.calls.length = 0;
    const again = await buildDocweb(options());
    expect(fx.calls).toEqual([
      'apt-get download --print-uris stats-doc',
      'apt-get download stats-doc',
      `dpkg-deb -x ${join(layout.debsDir, 'stats-doc_1.0-1_all.deb')} ${packageDir(layout, 'stats-doc')}.partial`,
    ]);
    expect(again.fetch).toMatchObject({ alreadyExtracted: 2, downloaded: 1, extracted: 1 });
    // The same deb was extracted again, so the tables (fingerprinted by deb names) stay valid.
    expect(again.isIndexReused).toBe(true);
    expect(existsSync(`${packageDir(layout, 'stats-doc')}.partial`)).toBe(false);
  });

  it('runs apt-get update first when the package lists are missing', async () => {
    await buildDocweb(options({ aptListsDir: join(fx.root, 'no-lists') }));
    expect(fx.calls[0]).toBe('apt-get update');
  });

  it('leaves out heavy packages with shouldExcludeHeavy', async () => {
    const summary = await buildDocweb(options({ shouldExcludeHeavy: true }));
    expect(summary.counts.sites).toBe(2);
    expect(fx.calls.some((c) => c.includes('music-doc'))).toBe(false);
  });

  it('names the unknown package when apt cannot find it, after one apt-get update', async () => {
    const { writeFileSync, readFileSync } = await import('node:fs');
    const manifest = JSON.parse(readFileSync(fx.manifestPath, 'utf8'));
    manifest.sites[0].package = 'no-such-doc';
    writeFileSync(fx.manifestPath, JSON.stringify(manifest));
    await expect(buildDocweb(options())).rejects.toThrow(/apt does not know no-such-doc/);
    await expect(buildDocweb(options())).rejects.toBeInstanceOf(ConfigError);
    expect(fx.calls.filter((c) => c === 'apt-get update').length).toBe(2);
  });
});

describe('buildDocweb with version drift', () => {
  it('re-resolves a package whose version the archive replaced between plan and download, and goes on', async () => {
    // The archive publishes stats-doc 1.0-2 (a security update) right after the plan was made.
    let isUpdated = false;
    const drifting: DocwebBuildOptions['run'] = async (command, args, opts) => {
      const isPrintUris = command === 'apt-get' && args[0] === 'download' && args[1] === '--print-uris';
      const r = await fx.run(command, args, opts);
      if (isPrintUris && isUpdated)
        return { ...r, stdout: r.stdout.replaceAll('stats-doc_1.0-1', 'stats-doc_1.0-2') };
      if (command === 'apt-get' && args[0] === 'download' && args.includes('stats-doc') && !isPrintUris) {
        isUpdated = true;
        rmSync(join(opts?.cwd ?? '.', 'stats-doc_1.0-1_all.deb'));
        writeFileSync(join(opts?.cwd ?? '.', 'stats-doc_1.0-2_all.deb'), Buffer.alloc(1000));
      }
      return r;
    };
    const summary = await buildDocweb(options({ run: drifting }));
    expect(summary.fetch.extracted).toBe(3);
    expect(lines.some((l) => l.includes('stats-doc_1.0-2_all.deb') && l.includes('version drift'))).toBe(
      true,
    );
    const layout = cacheLayout(fx.cacheDir);
    expect(existsSync(join(packageDir(layout, 'stats-doc'), EXTRACTED_MARKER))).toBe(true);
    expect(summary.counts.labelled.statistics).toBe(3);
  });
});
