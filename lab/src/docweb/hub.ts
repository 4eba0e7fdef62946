/**
 * The directory hub: packages.debian.org rebuilt from Debian's own metadata as a site of the
 * DocWeb. One page per binary package (short and long description, section, debtags, homepage,
 * Depends/Recommends/Suggests as links to other package pages, source package), index pages per
 * section and per debtags facet and tag (a category directory, as the Open Directory was for the
 * TRES papers). The text is Debian's (apt's package lists and English translations); the page
 * template is ours. URLs follow the real site: `/<suite>/<package>`, `/<suite>/<section>/`;
 * the tag directory (`/<suite>/tag/<facet>/<tag>/`) has no counterpart there.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PackageInfo } from './package-lists.js';

/** Host of the hub. */
export const HUB_HOST = 'packages.debian.org';
/** The `package` column of the hub's site row (not a Debian package: the hub is generated). */
export const HUB_PACKAGE = '(apt-metadata)';

/**
 * Sections whose packages get a page by default: every section of the archive but debug symbols
 * and translations (packages with no content of their own), as on the real site. The language
 * library sections (python, gnu-r, perl, rust ...) matter to the web's links: a library's page
 * links its Homepage, often the host of its documentation, and its -doc package.
 */
export const HUB_DEFAULT_SECTIONS: readonly string[] = Object.freeze(
  (
    'admin cli-mono comm database devel doc editors education electronics embedded fonts games ' +
    'gnome gnu-r gnustep golang graphics hamradio haskell httpd interpreters introspection java ' +
    'javascript kde kernel libdevel libs lisp mail math metapackages misc net news ocaml oldlibs ' +
    'otherosfs perl php python ruby rust science shells sound tasks tex text utils vcs video web ' +
    'x11 xfce zope'
  ).split(' '),
);

/** Options of {@link writeHub}. */
export interface HubOptions {
  /** Folder the pages go to (emptied first). */
  dir: string;
  /** Suite in the URLs. @default 'bookworm' */
  suite?: string;
  /** Sections whose packages get a page. @default HUB_DEFAULT_SECTIONS */
  sections?: readonly string[];
  /** Package -> URL of its documentation on this web (DocWeb sites of the manifest). @default none */
  docsOf?: ReadonlyMap<string, string>;
  /** Entries per index page before it continues on the next. @default 500 */
  pageSize?: number;
}

/** One page of the hub: its URL path and file (relative to the hub folder). */
export interface HubPage {
  urlPath: string;
  file: string;
  bytes: number;
  kind: 'package' | 'section' | 'facet' | 'tag' | 'home';
}

/** Escapes text for HTML content and attribute values. */
export const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Debian's long description as HTML: ' .' lines split paragraphs, indented lines stay verbatim. */
export function descriptionHtml(text: string): string {
  const lines = text.split('\n').slice(1);
  const blocks: string[] = [];
  let para: string[] = [];
  let pre: string[] = [];
  const flush = () => {
    if (para.length) blocks.push(`<p>${esc(para.join(' '))}</p>`);
    if (pre.length) blocks.push(`<pre>${esc(pre.join('\n'))}</pre>`);
    para = [];
    pre = [];
  };
  for (const raw of lines) {
    const line = raw.replace(/^ /, '');
    if (line === '.') flush();
    else if (line.startsWith(' ')) {
      if (para.length) flush();
      pre.push(line);
    } else {
      if (pre.length) flush();
      para.push(line.trim());
    }
  }
  flush();
  return blocks.join('\n');
}

function layout(title: string, suite: string, body: string): string {
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>\n` +
    `<p><a href="/${suite}/">Debian packages in ${suite}</a> | <a href="/${suite}/tag/">Browse by debtags</a></p>\n` +
    `${body}\n</body></html>\n`
  );
}

/**
 * Writes the hub's pages into `options.dir` and lists them.
 * @param packages every package apt knows (relations to packages without a page stay text)
 * @param longDescriptions Description-md5 -> Description-en (Translation-en)
 */
export function writeHub(
  packages: ReadonlyMap<string, PackageInfo>,
  longDescriptions: ReadonlyMap<string, string>,
  options: HubOptions,
): HubPage[] {
  const suite = options.suite ?? 'bookworm';
  const sections = new Set(options.sections ?? HUB_DEFAULT_SECTIONS);
  const pageSize = options.pageSize ?? 500;
  const docsOf = options.docsOf ?? new Map<string, string>();
  rmSync(options.dir, { recursive: true, force: true });
  const pages: HubPage[] = [];
  const emit = (urlPath: string, file: string, kind: HubPage['kind'], html: string) => {
    const abs = join(options.dir, file);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, html);
    pages.push({ urlPath, file, bytes: Buffer.byteLength(html), kind });
  };
  const listed = [...packages.values()]
    .filter((p) => sections.has(p.section.replace(/^.*\//, '')))
    .sort((a, b) => (a.package < b.package ? -1 : 1));
  const hasPage = new Set(listed.map((p) => p.package));
  const pkgLink = (name: string) =>
    hasPage.has(name) ? `<a href="/${suite}/${name}">${esc(name)}</a>` : esc(name);
  const tagUrl = (tag: string) => {
    const [facet, value] = tag.split('::') as [string, string | undefined];
    return `/${suite}/tag/${facet}/${value ?? ''}/`;
  };
  const bySection = new Map<string, PackageInfo[]>();
  const byTag = new Map<string, PackageInfo[]>();
  for (const p of listed) {
    const section = p.section.replace(/^.*\//, '');
    bySection.set(section, [...(bySection.get(section) ?? []), p]);
    for (const t of p.tags) if (t.includes('::')) byTag.set(t, [...(byTag.get(t) ?? []), p]);
    const relations = (label: string, groups: string[][]) =>
      groups.length === 0
        ? ''
        : `<h3>${label}</h3>\n<ul>${groups.map((g) => `<li>${g.map(pkgLink).join(' or ')}</li>`).join('')}</ul>`;
    const long = p.descriptionMd5 ? longDescriptions.get(p.descriptionMd5) : undefined;
    const docs = docsOf.get(p.package);
    const body = [
      `<h1>Package: ${esc(p.package)} (${esc(p.version)})</h1>`,
      `<h2>${esc(p.summary)}</h2>`,
      long ? descriptionHtml(long) : '',
      `<p>Section: <a href="/${suite}/${section}/">${esc(section)}</a></p>`,
      `<p>Source package: ${esc(p.source)}</p>`,
      p.homepage ? `<p>Homepage: <a href="${esc(p.homepage)}">${esc(p.homepage)}</a></p>` : '',
      docs ? `<p>Documentation on this web: <a href="${esc(docs)}">${esc(docs)}</a></p>` : '',
      p.tags.length
        ? `<h3>Tags</h3>\n<ul>${p.tags.map((t) => `<li><a href="${tagUrl(t)}">${esc(t)}</a></li>`).join('')}</ul>`
        : '',
      relations('Depends', p.depends),
      relations('Recommends', p.recommends),
      relations('Suggests', p.suggests),
    ].filter(Boolean);
    emit(
      `/${suite}/${p.package}`,
      `${suite}/${p.package}.html`,
      'package',
      layout(`Debian -- Details of package ${p.package} in ${suite}`, suite, body.join('\n')),
    );
  }
  const listPages = (
    base: string,
    fileBase: string,
    kind: HubPage['kind'],
    title: string,
    intro: string,
    members: PackageInfo[],
  ) => {
    const chunks = Math.max(1, Math.ceil(members.length / pageSize));
    for (let c = 0; c < chunks; c++) {
      const slice = members.slice(c * pageSize, (c + 1) * pageSize);
      const next = c + 1 < chunks ? `<p><a href="${base}index-${c + 2}.html">more packages</a></p>` : '';
      const items = slice.map((p) => `<dt>${pkgLink(p.package)}</dt><dd>${esc(p.summary)}</dd>`).join('\n');
      const name = c === 0 ? 'index.html' : `index-${c + 1}.html`;
      emit(
        c === 0 ? base : `${base}${name}`,
        `${fileBase}${name}`,
        kind,
        layout(title, suite, `<h1>${esc(title)}</h1>\n<p>${esc(intro)}</p>\n<dl>\n${items}\n</dl>\n${next}`),
      );
    }
  };
  const sectionNames = [...bySection.keys()].sort();
  for (const s of sectionNames)
    listPages(
      `/${suite}/${s}/`,
      `${suite}/${s}/`,
      'section',
      `Software Packages in "${suite}", Subsection ${s}`,
      `${bySection.get(s)?.length} packages`,
      bySection.get(s) ?? [],
    );
  const facets = new Map<string, string[]>();
  for (const tag of [...byTag.keys()].sort()) {
    const [facet] = tag.split('::') as [string];
    facets.set(facet, [...(facets.get(facet) ?? []), tag]);
    const members = byTag.get(tag) ?? [];
    listPages(
      tagUrl(tag),
      `${suite}/tag/${facet}/${tag.split('::')[1]}/`,
      'tag',
      `Packages tagged ${tag}`,
      `${members.length} packages`,
      members,
    );
  }
  for (const [facet, tags] of facets) {
    const items = tags
      .map((t) => `<li><a href="${tagUrl(t)}">${esc(t)}</a> (${byTag.get(t)?.length})</li>`)
      .join('\n');
    emit(
      `/${suite}/tag/${facet}/`,
      `${suite}/tag/${facet}/index.html`,
      'facet',
      layout(`debtags facet ${facet}`, suite, `<h1>debtags facet ${esc(facet)}</h1>\n<ul>\n${items}\n</ul>`),
    );
  }
  const facetList = [...facets.keys()]
    .map((f) => `<li><a href="/${suite}/tag/${f}/">${esc(f)}</a></li>`)
    .join('\n');
  emit(
    `/${suite}/tag/`,
    `${suite}/tag/index.html`,
    'home',
    layout(
      'Browse packages by debtags',
      suite,
      `<h1>Browse packages by debtags</h1>\n<ul>\n${facetList}\n</ul>`,
    ),
  );
  const sectionList = sectionNames
    .map(
      (s) => `<dt><a href="/${suite}/${s}/">${esc(s)}</a></dt><dd>${bySection.get(s)?.length} packages</dd>`,
    )
    .join('\n');
  emit(
    `/${suite}/`,
    `${suite}/index.html`,
    'home',
    layout(
      `Packages in ${suite}`,
      suite,
      `<h1>Software Packages in "${suite}"</h1>\n<dl>\n${sectionList}\n</dl>`,
    ),
  );
  return pages;
}
