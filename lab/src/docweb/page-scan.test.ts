import { mkdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeEach, describe, expect, it } from 'vitest';
import { pageUrl, scanSitePages } from './page-scan.js';
import { sanitizeLinks } from './sanitize-links.js';

let dir: string;
const put = (rel: string, body = '<html></html>') => {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), body);
};
beforeEach(() => {
  dir = tempDir('tres-scan-');
});

describe('scanSitePages', () => {
  it('lists HTML files sorted, skips other files, and counts excluded trees once each', async () => {
    for (const f of [
      'b.html',
      'a/x.htm',
      'core/arch/x86/f.html',
      'core/arch/g.html',
      'p/class-use/C.html',
      'c.css',
    ])
      put(f);
    const scan = await scanSitePages(dir, { exclude: ['core/arch/'], excludeDirNames: ['class-use'] });
    expect(scan.pages.map((p) => p.relPath)).toEqual(['a/x.htm', 'b.html']);
    expect(scan.pages[0]?.bytes).toBe(13);
    expect(scan.excludedPages).toBe(3);
    expect(scan.excludedTrees).toEqual(['core/arch/', 'p/class-use/']);
  });

  it('follows symlinked files but not symlinked folders, and drops dangling links', async () => {
    put('real/a.html');
    symlinkSync('real/a.html', join(dir, 'link.html'));
    symlinkSync('real', join(dir, 'again'));
    symlinkSync('missing.html', join(dir, 'dangling.html'));
    const scan = await scanSitePages(dir);
    expect(scan.pages.map((p) => p.relPath)).toEqual(['link.html', 'real/a.html']);
  });
});

describe('pageUrl', () => {
  it('spells the URL as a link to the file would: reserved characters escaped, https, normalised', () => {
    expect(pageUrl('docs.example', '/a/', 'b c/d%e?f#g.html')).toBe(
      'https://docs.example/a/b%20c/d%25e%3Ff%23g.html',
    );
    expect(pageUrl('docs.example', '/', 'caf\u00e9.html')).toBe('https://docs.example/caf%C3%A9.html');
    expect(pageUrl('docs.example', '/', 'operator~.html')).toBe('https://docs.example/operator~.html');
  });
});

describe('sanitizeLinks', () => {
  it('re-roots absolute links inside the package and removes links that leave it', async () => {
    put('usr/share/doc/p/html/a.html');
    put('usr/share/javascript/jq.js', '');
    symlinkSync('/usr/share/javascript/jq.js', join(dir, 'usr/share/doc/p/html/jq.js'));
    symlinkSync('../../../../../../etc/passwd', join(dir, 'usr/share/doc/p/html/pw'));
    symlinkSync('a.html', join(dir, 'usr/share/doc/p/html/b.html'));
    const report = await sanitizeLinks(dir);
    expect(report).toEqual({ rerooted: 1, removed: 1 });
    expect(readlinkSync(join(dir, 'usr/share/doc/p/html/jq.js'))).toBe('../../../javascript/jq.js');
    expect(readlinkSync(join(dir, 'usr/share/doc/p/html/b.html'))).toBe('a.html');
    expect(() => readlinkSync(join(dir, 'usr/share/doc/p/html/pw'))).toThrow();
  });
});
