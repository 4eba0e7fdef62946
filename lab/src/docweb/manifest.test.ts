import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from 'tres-crawler';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MANIFEST_PATH, loadManifest, selectSites } from './manifest.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('tres-manifest-');
});

const site = {
  package: 'a-doc',
  host: 'a.example',
  prefix: '/docs',
  rootInPackage: '/usr/share/doc/a/',
  topic: 'A',
};
const write = (data: unknown) => {
  const file = join(dir, 'sites.json');
  writeFileSync(file, JSON.stringify(data));
  return file;
};

describe('loadManifest', () => {
  it('loads the shipped manifest: the 75 first sites (5 heavy), the grown ones after them, giant trees excluded', () => {
    const m = loadManifest(DEFAULT_MANIFEST_PATH);
    const grown = m.sites.slice(75);
    expect(m.sites.length).toBeGreaterThanOrEqual(75);
    expect(grown.every((s) => /^(grown|curated): /.test(s.topic) && !s.heavy)).toBe(true);
    expect(selectSites(m, { shouldExcludeHeavy: true })).toHaveLength(m.sites.length - 5);
    expect(m.sites.find((s) => s.package === 'rust-doc')?.exclude).toContain('core/arch/');
    expect(m.sites.find((s) => s.package === 'openjdk-17-doc')?.excludeDirNames).toEqual(['class-use']);
  });

  it('accepts the bare list of ../shared/docweb/sites.json and normalises prefix and root', () => {
    const m = loadManifest(write([site]));
    expect(m.sites[0]).toMatchObject({
      prefix: '/docs/',
      rootInPackage: '/usr/share/doc/a',
      heavy: false,
      exclude: [],
    });
  });

  it('names the file and field of a bad entry', () => {
    const file = write({ sites: [site, { ...site, package: 'b-doc', prefix: 'docs' }] });
    expect(() => loadManifest(file)).toThrow(ConfigError);
    expect(() => loadManifest(file)).toThrow(`${file}: sites[1].prefix must start with '/'`);
    expect(() => loadManifest(write({ sites: [site, { ...site, prefix: '/other/' }] }))).toThrow(
      /sites\[1\]\.package repeats 'a-doc'/,
    );
    expect(() => loadManifest(write({ sites: [{ ...site, exclude: ['/abs/'] }] }))).toThrow(
      /sites\[0\]\.exclude/,
    );
    expect(() => loadManifest(join(dir, 'missing.json'))).toThrow(/cannot read DocWeb manifest/);
  });
});
