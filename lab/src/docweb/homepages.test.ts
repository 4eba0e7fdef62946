import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it } from 'vitest';
import { homepageSites, writeHomepages } from './homepages.js';
import type { PackageInfo } from './package-lists.js';

const pkg = (name: string, homepage: string | undefined, fields: Partial<PackageInfo> = {}): PackageInfo => ({
  package: name,
  version: '1',
  source: name,
  section: 'utils',
  sizeBytes: 1,
  installedKb: 1,
  ...(homepage ? { homepage } : {}),
  summary: `${name} summary`,
  tags: [],
  depends: [],
  recommends: [],
  suggests: [],
  ...fields,
});

let dir = '';

function write(
  packages: PackageInfo[],
  servedSites = [{ host: 'www.gnu.org', prefix: '/software/make/manual/' }],
) {
  dir = tempDir('tres-homepages-');
  const pages = writeHomepages(new Map(packages.map((p) => [p.package, p])), new Map(), {
    dir,
    hubHost: 'packages.debian.org',
    suite: 'bookworm',
    listed: new Set(packages.map((p) => p.package)),
    servedSites,
    maxRelated: 2,
  });
  const html = (host: string, path: string) => readFileSync(join(dir, host, path), 'utf8');
  return { pages, html, sites: homepageSites(pages, servedSites) };
}

describe('writeHomepages', () => {
  it('writes one page per home page URL, sharing it among the packages that name it', () => {
    const { pages, html } = write([
      pkg('tool', 'https://github.com/acme/tool'),
      pkg('tool-data', 'https://github.com/acme/tool/', { source: 'tool' }),
      pkg('nohome', undefined),
    ]);
    expect(pages.map((p) => [p.url, p.packages])).toEqual([
      ['https://github.com/acme/tool/index.html', ['tool', 'tool-data']],
    ]);
    const page = html('github.com', 'acme/tool/index.html');
    expect(page).toContain('<h1>tool</h1>');
    expect(page).toContain('<a href="https://packages.debian.org/bookworm/tool-data">tool-data</a>');
  });

  it("puts a page on a served host under its served spelling, unless a site's prefix covers the path", () => {
    const { pages, sites } = write([
      pkg('make', 'http://gnu.org/software/make/'),
      pkg('manual-page', 'https://www.gnu.org/software/make/manual/'),
    ]);
    expect(pages.map((p) => p.url)).toEqual(['https://www.gnu.org/software/make/index.html']);
    // On a served host the page is a site of its own folder: the manual's site keeps its prefix.
    expect(sites).toEqual([
      {
        host: 'www.gnu.org',
        prefix: '/software/make/',
        dir: join('www.gnu.org', 'software/make/'),
        pages: [
          { url: 'https://www.gnu.org/software/make/index.html', path: 'index.html', bytes: pages[0]?.bytes },
        ],
      },
    ]);
  });

  it('links related projects both ways, those sharing the most debtags first, at most maxRelated', () => {
    const { html } = write([
      pkg('app', 'https://app.example/', {
        tags: ['hardware::usb'],
        depends: [['libusb'], ['libc'], ['libother']],
      }),
      pkg('libusb', 'https://libusb.example/', { tags: ['hardware::usb'] }),
      pkg('libc', 'https://libc.example/'),
      pkg('libother', 'https://other.example/'),
    ]);
    const app = html('app.example', 'index.html');
    // libusb shares a tag; then by URL: libc before other. Two at most.
    expect(app).toContain(
      '<h3>Uses</h3>\n<ul><li><a href="https://libusb.example/">libusb</a></li><li><a href="https://libc.example/">libc</a></li></ul>',
    );
    expect(html('libusb.example', 'index.html')).toContain(
      '<h3>Used by</h3>\n<ul><li><a href="https://app.example/">app</a></li></ul>',
    );
  });
});
