import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb, type DocwebBuildSummary } from './build.js';
import { DocwebDb } from './docweb-db.js';
import { type DocwebServer, startDocweb } from './docweb-server.js';
import { HOMEPAGES_PACKAGE, homepageTarget } from './homepages.js';
import { descriptionHtml } from './hub.js';
import { hubLandingPath, readHubIndex } from './hub-site.js';
import { parseRelations } from './package-lists.js';
import { type DocwebFixture, makeDocwebFixture } from './test-fixture.js';
import { parseTopic } from './topic.js';
import { topicReport } from './topic-report.js';

let fx: DocwebFixture;
let server: DocwebServer;
let summary: DocwebBuildSummary;

beforeAll(async () => {
  fx = makeDocwebFixture();
  summary = await buildDocweb({
    cacheDir: fx.cacheDir,
    manifestPath: fx.manifestPath,
    topicsDir: fx.topicsDir,
    run: fx.run,
    aptListsDir: fx.aptListsDir,
    log: () => {},
  });
  server = await startDocweb({ cacheDir: fx.cacheDir, port: 0 });
});
afterAll(async () => {
  await server?.close();
  fx?.cleanup();
});

function get(path: string): Promise<{ status: number; location?: string; body: string }> {
  return getOn('packages.debian.org', path);
}

function getOn(host: string, path: string): Promise<{ status: number; location?: string; body: string }> {
  return new Promise((resolveGet, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        // As tres --https-as-http asks for an https:// URL (DocWeb hosts are https only).
        headers: { host, 'x-forwarded-proto': 'https' },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolveGet({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the directory hub (packages.debian.org from apt metadata)', () => {
  it('lists one page per package of the chosen sections, plus section, facet and tag indexes', () => {
    const db = new DocwebDb(fx.cacheDir);
    try {
      const hub = db.sites().find((s) => s.host === 'packages.debian.org');
      // The 14 pages of the fixture's sites and one project home page (www.sensors.example).
      expect(hub?.pages).toBe(summary.counts.pages - 15);
      const urls = db
        .pages()
        .filter((p) => p.siteId === hub?.id)
        .map((p) => p.url);
      // libsense1 is in section debug here: no page of its own.
      expect(urls).toEqual(
        expect.arrayContaining([
          'https://packages.debian.org/bookworm/sensors-tool',
          'https://packages.debian.org/bookworm/hw-doc',
          'https://packages.debian.org/bookworm/utils/',
          'https://packages.debian.org/bookworm/tag/hardware/sensor/',
          'https://packages.debian.org/bookworm/tag/hardware/',
        ]),
      );
      expect(urls.some((u) => u.includes('libsense1'))).toBe(false);
    } finally {
      db.close();
    }
  });

  it("writes Debian's text in our template: long description, section, tags, homepage, relations as links", async () => {
    const page = await get('/bookworm/sensors-tool');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h2>reads hardware sensors</h2>');
    expect(page.body).toContain('<p>The tool reads temperature and fan sensors of the mainboard.</p>');
    expect(page.body).toContain('<pre>  * lm75\n  * w83627</pre>');
    expect(page.body).toContain('<a href="/bookworm/utils/">utils</a>');
    expect(page.body).toContain('<a href="/bookworm/tag/hardware/sensor/">hardware::sensor</a>');
    expect(page.body).toContain('<a href="https://www.sensors.example/">');
    // libsense1 has no page (section debug): plain text; alternatives joined with "or".
    expect(page.body).toContain('<li>libsense1</li>');
    expect(page.body).toContain(
      '<a href="/bookworm/hw-doc">hw-doc</a> or <a href="/bookworm/stats-doc">stats-doc</a>',
    );
    // A documentation package links to its site on this web.
    expect((await get('/bookworm/hw-doc')).body).toContain(
      'Documentation on this web: <a href="https://hw.example/">',
    );
  });

  it("answers the real site's other spellings with a 301 to the suite's page", async () => {
    expect(await get('/sensors-tool')).toMatchObject({ status: 301, location: '/bookworm/sensors-tool' });
    expect(await get('/sid/sensors-tool')).toMatchObject({ status: 301, location: '/bookworm/sensors-tool' });
    expect(await get('/bookworm/sensors-tool/')).toMatchObject({
      status: 301,
      location: '/bookworm/sensors-tool',
    });
    expect(await get('/bookworm/utils')).toMatchObject({ status: 301, location: '/bookworm/utils/' });
    expect(await get('/')).toMatchObject({ status: 301, location: '/bookworm/' });
    expect((await get('/bookworm/utils/')).body).toContain(
      '<a href="/bookworm/sensors-tool">sensors-tool</a>',
    );
    expect((await get('/bookworm/no-such-package')).status).toBe(404);
    expect((await get('/bookworm/sensors-tool.html')).status).toBe(404);
  });
});

describe('topic rules on the hub', () => {
  it('label package pages by section and by debtags (a trailing * matches a tag prefix)', () => {
    const index = readHubIndex(fx.cacheDir);
    const data = {
      name: 'sensors',
      keywords: ['sensor'],
      relevant: [
        { host: 'packages.debian.org', prefix: '/bookworm/tag/hardware/' },
        { host: 'packages.debian.org', tags: ['hardware::*'] },
        { host: 'packages.debian.org', sections: ['utils'] },
      ],
      seeds: ['https://packages.debian.org/bookworm/tag/hardware/'],
    };
    const topic = parseTopic(data, 'sensors.yaml', index);
    expect(topic.labelOf('https://packages.debian.org/bookworm/hw-doc')).toBe(true); // hardware::sensor
    expect(topic.labelOf('https://packages.debian.org/bookworm/sensors-tool')).toBe(true);
    expect(topic.labelOf('https://packages.debian.org/bookworm/stats-doc')).toBe(false);
    expect(topic.labelOf('https://packages.debian.org/bookworm/tag/hardware/sensor/')).toBe(true);
    // The topic report counts what each rule matches with the same index.
    const db = new DocwebDb(fx.cacheDir);
    try {
      const report = topicReport(db, topic);
      // tag + facet page; hw-doc + sensors-tool + sensors-tool's home page; sensors-tool + its home page
      expect(report.rules.map((r) => r.pages)).toEqual([2, 3, 2]);
    } finally {
      db.close();
    }
    // Without the hub's index, rules by section or tag match nothing.
    const bare = parseTopic(data, 'sensors.yaml');
    expect(bare.labelOf('https://packages.debian.org/bookworm/sensors-tool')).toBe(false);
  });
});

describe('project home pages (the second directory layer)', () => {
  it('serves a page at the Homepage URL of a package on a host the web does not serve', async () => {
    const db = new DocwebDb(fx.cacheDir);
    try {
      const site = db.sites().find((s) => s.host === 'www.sensors.example');
      expect(site).toMatchObject({ package: HOMEPAGES_PACKAGE, prefix: '/', pages: 1 });
      // hw-doc's home page is https://hw.example/, a served site: its own files decide, no page added.
      expect(
        db
          .sites()
          .filter((s) => s.host === 'hw.example')
          .map((s) => s.package),
      ).toEqual(['hw-doc']);
    } finally {
      db.close();
    }
    const page = await getOn('www.sensors.example', '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h2>reads hardware sensors</h2>');
    expect(page.body).toContain(
      '<a href="https://packages.debian.org/bookworm/sensors-tool">sensors-tool</a>',
    );
    // The bare spelling redirects to the served one, as for every served host.
    expect((await getOn('sensors.example', '/')).status).toBe(301);
  });

  it("are relevant when a topic's rule by section or debtags selects one of their packages", () => {
    const index = readHubIndex(fx.cacheDir);
    expect(index?.homepages.get('sensors.example')).toEqual(['sensors-tool']);
    const rule = (r: Record<string, unknown>) => ({
      name: 't',
      keywords: ['sensor'],
      relevant: [r, { host: 'seed.example' }],
      seeds: ['https://seed.example/'],
    });
    const byTag = parseTopic(
      rule({ host: 'packages.debian.org', tags: ['hardware::sensor'] }),
      't.yaml',
      index,
    );
    expect(byTag.labelOf('https://www.sensors.example/')).toBe(true);
    expect(byTag.labelOf('http://sensors.example/index.html')).toBe(true);
    expect(byTag.labelOf('https://www.sensors.example/other/')).toBe(false);
    const bySection = parseTopic(rule({ host: 'packages.debian.org', sections: ['doc'] }), 't.yaml', index);
    expect(bySection.labelOf('https://www.sensors.example/')).toBe(false);
    // A rule on the home page's host labels it as any page of that host.
    const byHost = parseTopic(rule({ host: 'www.sensors.example' }), 't.yaml', index);
    expect(byHost.labelOf('https://www.sensors.example/')).toBe(true);
    // An except rule by section or debtags removes it.
    const excepted = parseTopic(
      {
        ...rule({ host: 'packages.debian.org', sections: ['utils'] }),
        except: [{ host: 'packages.debian.org', tags: ['role::program'] }],
      },
      't.yaml',
      index,
    );
    expect(excepted.labelOf('https://www.sensors.example/')).toBe(false);
  });
});

describe('homepageTarget', () => {
  it('maps a Homepage value to a host and a file, or rejects what cannot be a page here', () => {
    expect(homepageTarget('https://github.com/owner/repo')).toEqual({
      host: 'github.com',
      path: 'owner/repo/index.html',
    });
    expect(homepageTarget('http://www.gnu.org/software/make/')).toEqual({
      host: 'www.gnu.org',
      path: 'software/make/index.html',
    });
    expect(homepageTarget('https://x.example/doc/main.html')).toEqual({
      host: 'x.example',
      path: 'doc/main.html',
    });
    expect(homepageTarget('https://x.example/')).toEqual({ host: 'x.example', path: 'index.html' });
    expect(homepageTarget('https://x.example/index.php?title=Main')).toBeUndefined();
    expect(homepageTarget('https://x.example:8080/')).toBeUndefined();
    expect(homepageTarget('ftp://x.example/')).toBeUndefined();
    expect(homepageTarget('https://192.168.1.1/')).toBeUndefined();
    expect(homepageTarget('not a url')).toBeUndefined();
    expect(homepageTarget('https://volans-.github.io/')).toBeUndefined();
  });
});

describe('package metadata parsing', () => {
  it('reads relations as alternatives of names, without versions or architectures', () => {
    expect(parseRelations('libc6 (>= 2.34), python3:any | pypy3 [amd64], zlib1g')).toEqual([
      ['libc6'],
      ['python3', 'pypy3'],
      ['zlib1g'],
    ]);
  });

  it('keeps indented description lines verbatim and splits paragraphs at " ."', () => {
    expect(descriptionHtml('short\n one\n two\n .\n   code <x>')).toBe(
      '<p>one two</p>\n<pre>  code &lt;x&gt;</pre>',
    );
  });
});

describe('hubLandingPath', () => {
  it("follows the hub handler's redirects without reading files", () => {
    expect(hubLandingPath('/')).toBe('/bookworm/');
    expect(hubLandingPath('/coreutils')).toBe('/bookworm/coreutils');
    expect(hubLandingPath('/coreutils/')).toBe('/bookworm/coreutils');
    expect(hubLandingPath('/sid/coreutils')).toBe('/bookworm/coreutils');
    expect(hubLandingPath('/bookworm/admin/')).toBe('/bookworm/admin/');
    expect(hubLandingPath('/search/x')).toBeUndefined();
  });
});
