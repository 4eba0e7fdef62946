/**
 * Every relative link in the repository's Markdown (README, docs/, the reports under results/,
 * the READMEs beside the code) names a tracked file, and every `#anchor` a heading of that file,
 * as GitHub renders it. Links into the web (`https:`, `mailto:`) are not followed: tests reach no
 * network.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFiles } from './repo-files.js';

const tracked = repoFiles();
const trackedSet = new Set(tracked);
const trackedDirs = new Set(
  tracked.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const markdown = tracked.filter((f) => f.endsWith('.md'));

/** Markdown without fenced code blocks and inline code, where `](...)` is not a link. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, blanks as hyphens. */
function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file offers: its headings (repeats numbered -1, -2, ...) and `<a id>`. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const slug = headingSlug(m[1] ?? '');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1] ?? '');
  return anchors;
}

/** Broken relative links of one Markdown file, as `file: target (why)`. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const m of prose(readFileSync(file, 'utf8')).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const linked =
      path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path))).replace(/\/$/, '');
    if (!trackedSet.has(linked) && !trackedDirs.has(linked)) {
      broken.push(`${file}: ${target} (no such tracked file)`);
    } else if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) {
      broken.push(`${file}: ${target} (no heading #${anchor})`);
    }
  }
  return broken;
}

describe('links in the Markdown files', () => {
  it('finds the README and docs/ among the files it checks', () => {
    expect(markdown).toContain('README.md');
    expect(markdown).toContain('docs/architecture.md');
  });

  it('makes anchors as GitHub does', () => {
    expect(headingSlug('Why the domain-limit claim does not hold on the DocWeb')).toBe(
      'why-the-domain-limit-claim-does-not-hold-on-the-docweb',
    );
    expect(headingSlug('`tres crawl --ui`: the dashboard, live')).toBe('tres-crawl---ui-the-dashboard-live');
    expect(headingSlug('Repairing a damaged store')).toBe('repairing-a-damaged-store');
  });

  it('resolves every relative link to a tracked file and every anchor to a heading', () => {
    expect(markdown.flatMap(brokenLinks)).toEqual([]);
  });
});
