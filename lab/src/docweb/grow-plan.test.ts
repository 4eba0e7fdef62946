import { describe, expect, it } from 'vitest';
import { htmlRootOf, linkedSegments, planGrowth } from './grow-plan.js';
import type { UnservedHost } from './link-graph.js';
import { parsePackages } from './package-lists.js';

const packages = parsePackages(`Package: python3.11-doc
Section: doc
Size: 9000000
Homepage: https://www.python.org/
Description: Python docs

Package: pike-doc
Section: doc
Size: 6000000
Homepage: https://pike.lysator.liu.se/
Description: Pike docs

Package: gawk-doc
Section: doc
Size: 1000000
Homepage: https://www.gnu.org/software/gawk/
Description: gawk manual

Package: tool-doc
Section: doc
Size: 1000
Homepage: https://github.com/someone/tool
Description: on a code platform
`);

const contents = new Map<string, string[]>([
  [
    'python3.11-doc',
    ['library/os.html', 'library/sys.html', 'library/index.html', 'tutorial/index.html', 'index.html'].map(
      (f) => `usr/share/doc/python3.11/html/${f}`,
    ),
  ],
  // The same file names by chance, in another package.
  [
    'pike-doc',
    [
      'usr/share/doc/pike/library/os.html',
      'usr/share/doc/pike/library/sys.html',
      'usr/share/doc/pike/index.html',
    ],
  ],
  [
    'gawk-doc',
    [
      'index.html',
      'Getting-Started.html',
      'Regexp.html',
      'Arrays.html',
      'Functions.html',
      'I_002fO.html',
    ].map((f) => `usr/share/doc/gawk-doc/gawk.html/${f}`),
  ],
  ['tool-doc', ['a', 'b', 'c', 'd', 'e', 'index'].map((f) => `usr/share/doc/tool/html/${f}.html`)],
]);

const hosts: UnservedHost[] = [
  {
    host: 'docs.python.org',
    links: 40,
    sites: 3,
    paths: [
      ['/3/library/os.html', 20],
      ['/3/library/sys.html', 10],
      ['/3/tutorial/', 10],
    ],
  },
  { host: 'www.gnu.org', links: 7, sites: 2, paths: [['/licenses/fdl.html', 7]] },
  { host: 'github.com', links: 99, sites: 9, paths: [['/someone/tool', 99]] },
];

describe('planGrowth', () => {
  it('adds the package whose files the linked paths name, under the URL prefix that makes them fit', () => {
    const plan = planGrowth(hosts, contents, packages, []);
    const python = plan.chosen.find((c) => c.site.package === 'python3.11-doc');
    expect(python?.site).toMatchObject({
      host: 'docs.python.org',
      prefix: '/3/',
      rootInPackage: '/usr/share/doc/python3.11/html',
    });
    expect(python?.paths).toBe(3);
    // pike-doc has the same file names but another homepage and too few fits: not taken.
    expect(plan.chosen.some((c) => c.site.package === 'pike-doc')).toBe(false);
  });

  it("adds a documentation package at its Homepage when pages link to that host, never a code platform's", () => {
    const plan = planGrowth(hosts, contents, packages, []);
    expect(plan.chosen.find((c) => c.site.package === 'gawk-doc')?.site).toMatchObject({
      host: 'www.gnu.org',
      prefix: '/software/gawk/',
      rootInPackage: '/usr/share/doc/gawk-doc/gawk.html',
    });
    expect(plan.chosen.some((c) => c.site.package === 'tool-doc')).toBe(false);
  });

  it('prefers a fit to a homepage site of the same package, so the site gets the prefix the links use', () => {
    // docs.python.org is linked 40 times, www.python.org (python3.11-doc's Homepage) 500 times.
    const withHome: UnservedHost[] = [
      ...hosts,
      { host: 'www.python.org', links: 500, sites: 9, paths: [['/', 500]] },
    ];
    const python = planGrowth(withHome, contents, packages, []).chosen.find(
      (c) => c.site.package === 'python3.11-doc',
    );
    expect(python?.site).toMatchObject({ host: 'docs.python.org', prefix: '/3/' });
  });

  it('keeps within the download budget and leaves out packages already in the manifest', () => {
    const plan = planGrowth(hosts, contents, packages, [], { budgetBytes: 5e6 });
    expect(plan.chosen.map((c) => c.site.package)).toEqual(['gawk-doc']);
    expect(plan.skipped.map((s) => [s.candidate.site.package, s.reason])).toEqual([
      ['python3.11-doc', 'over the download budget'],
    ]);
    const inManifest = planGrowth(hosts, contents, packages, [
      {
        package: 'gawk-doc',
        host: 'www.gnu.org',
        prefix: '/software/gawk/manual/',
        rootInPackage: '/x',
        topic: '',
      },
    ]);
    expect(inManifest.chosen.some((c) => c.site.package === 'gawk-doc')).toBe(false);
  });
});

describe('grow helpers', () => {
  it('turns a folder URL into its index.html and decodes the path', () => {
    expect(linkedSegments('/3/tutorial/')).toEqual(['3', 'tutorial', 'index.html']);
    expect(linkedSegments('/a%20b/c.html')).toEqual(['a b', 'c.html']);
  });

  it('finds the HTML root holding the most pages', () => {
    expect(htmlRootOf(['d/x/index.html', 'd/x/a.html', 'd/x/y/index.html', 'd/z/index.html'])).toEqual({
      root: 'd/x',
      pages: 3,
    });
  });
});
