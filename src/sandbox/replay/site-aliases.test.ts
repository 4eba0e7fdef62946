import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReplayServer } from './replay-server.js';
import { versionAlias, wwwAlias } from './site-aliases.js';
import { SiteRouter } from './site-router.js';
import { fetchVia } from './test-client.js';

describe('versionAlias', () => {
  it('names the version served for another version segment', () => {
    expect(versionAlias('/en/stable/usage/index.html', ['/en/master/'])).toBe('/en/master/usage/index.html');
    expect(versionAlias('/3.4/library/os.html', ['/3/'])).toBe('/3/library/os.html');
    expect(versionAlias('/docs/current/gist.html', ['/docs/15/'])).toBe('/docs/15/gist.html');
  });

  it('puts back a version segment the path leaves out', () => {
    expect(versionAlias('/library/pathlib.html', ['/3/'])).toBe('/3/library/pathlib.html');
    expect(versionAlias('/docs/gist.html', ['/docs/15/'])).toBe('/docs/15/gist.html');
  });

  it('drops a leading version in front of a site served at the host root', () => {
    expect(versionAlias('/1.85.0/std/primitive.bool.html', ['/'])).toBe('/std/primitive.bool.html');
    expect(versionAlias('/stable/std/index.html', ['/'])).toBe('/std/index.html');
    // A folder called dev/ or main/ at the root may exist: never dropped.
    expect(versionAlias('/dev/x.html', ['/'])).toBeUndefined();
  });

  it('leaves other paths alone', () => {
    expect(versionAlias('/about/', ['/docs/15/'])).toBeUndefined();
    expect(versionAlias('/fr/stable/x.html', ['/en/master/'])).toBeUndefined();
    expect(versionAlias('/software/x/', ['/software/solfege/help/', '/'])).toBeUndefined();
    // A prefix without a version segment gives nothing to rename.
    expect(versionAlias('/manual/x.html', ['/docs/'])).toBeUndefined();
  });
});

describe('wwwAlias', () => {
  it('adds or removes www.', () => {
    expect(wwwAlias('sphinx-doc.org')).toBe('www.sphinx-doc.org');
    expect(wwwAlias('www.sphinx-doc.org')).toBe('sphinx-doc.org');
  });
});

describe('a replay server with aliases', () => {
  it('answers the www. spelling and version segments with a 301 to the page served, and serves it there', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tres-alias-'));
    await mkdir(join(root, 'usage'), { recursive: true });
    await writeFile(join(root, 'usage', 'index.html'), '<title>usage</title>');
    const sites = [{ host: 'www.sphinx-doc.org', prefix: '/en/master/', dir: root }];
    const server = await startReplayServer({ sites, aliases: true, canonicalScheme: 'https' });
    const plain = await startReplayServer({ sites });
    try {
      const get = (host: string, path: string, port = server.port) =>
        fetchVia({ port, host, path, headers: { 'x-forwarded-proto': 'https' } });
      const bare = await get('sphinx-doc.org', '/en/stable/usage/?q=1');
      expect(bare.status).toBe(301);
      expect(bare.headers.location).toBe('https://www.sphinx-doc.org/en/stable/usage/?q=1');
      const stable = await get('www.sphinx-doc.org', '/en/stable/usage/');
      expect(stable.status).toBe(301);
      expect(stable.headers.location).toBe('/en/master/usage/');
      const page = await get('www.sphinx-doc.org', '/en/master/usage/');
      expect(page.status).toBe(200);
      expect(page.body.toString()).toContain('usage');
      // Off by default: the replay server answers only what it serves.
      expect((await get('www.sphinx-doc.org', '/en/stable/usage/', plain.port)).status).toBe(404);
      expect(new SiteRouter(sites).route('sphinx-doc.org', '/').kind).toBe('unknown-host');
    } finally {
      await server.close();
      await plain.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
