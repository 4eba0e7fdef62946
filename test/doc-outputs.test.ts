/**
 * The commands of the README and the user guides (docs/*.md), run in a clone of the repository,
 * write only where git ignores what they make: crawls/ (and bench-out/ for benchmarks), an
 * absolute path or a placeholder such as DIR. A seeds file or a crawl folder in the repository's
 * root would show up in `git status` of everyone who tried the guide.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const GUIDES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** A command line of a shell block: the tres command, the lab's, or the shell writing a file. */
const COMMAND = /^\s*(npx tres|tres|npm run lab|npm run bench|mkdir|printf|echo|sqlite3)\b/;
/** Where a command writes: an output option or a shell redirection. */
const WRITES = /(?:--out|--cache|--warc-dir)\s+(\S+)|>\s*(\S+)/g;
/** Places that are fine to write: ignored folders, absolute or home paths, placeholders. */
const ALLOWED = /^(crawls\/|bench-out\/|\/|~|\$|[A-Z][A-Z_]*(\/|$))/;

/** Each shell command line of `markdown` with its line number. */
function shellCommands(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let isShell = false;
  markdown.split('\n').forEach((text, i) => {
    const fence = /^```(\w*)/.exec(text);
    if (fence) {
      isShell = !isShell && (fence[1] === 'sh' || fence[1] === 'bash');
      return;
    }
    if (isShell && COMMAND.test(text)) out.push({ line: i + 1, text: text.replace(/\s+#.*$/, '') });
  });
  return out;
}

describe('the commands of the guides', () => {
  it('write into crawls/ (ignored by git), never into the repository root', () => {
    const misplaced: string[] = [];
    for (const file of GUIDES) {
      for (const { line, text } of shellCommands(readFileSync(join(ROOT, file), 'utf8'))) {
        for (const m of text.matchAll(WRITES)) {
          const target = (m[1] ?? m[2] ?? '').replace(/^['"]|['"]$/g, '');
          if (!ALLOWED.test(target)) misplaced.push(`${file}:${line}: ${target}`);
        }
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('are found: the README and the guides have shell commands that write', () => {
    const readme = shellCommands(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(readme.some((c) => c.text.includes('--out crawls/crawl1'))).toBe(true);
    const crawling = shellCommands(readFileSync(join(ROOT, 'docs', 'crawling.md'), 'utf8'));
    expect(crawling.some((c) => c.text.includes('> crawls/seeds.txt'))).toBe(true);
  });
});
