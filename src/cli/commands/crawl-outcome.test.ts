/**
 * What `tres crawl` tells the user and how far it goes: failures by
 * reason with hints and exit 1 when nothing could be fetched, every default in --help, the
 * default strategy the README names, and the crawl scope from flags and config files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STRATEGY } from '../../strategies/index.js';
import { CRAWL_FLAGS } from '../crawl-flags.js';
import { runMain } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

const README = join(dirname(fileURLToPath(import.meta.url)), '../../../README.md');

describe('tres crawl reports and scope', () => {
  let sandbox: SandboxCrawl;
  let base: string;
  let seeds: string;
  let rules: string;

  beforeAll(async () => {
    sandbox = await startSandboxCrawl({
      seed: 8,
      hostCount: 8,
      pageCount: 800,
      topics: ['computer hardware', 'jazz music'],
      prefix: 'tres-outcome-',
    });
    ({ base, seedsFile: seeds, rules } = sandbox);
  });
  afterAll(() => sandbox.close());

  const rows = (dir: string) => {
    const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
    try {
      return db.prepare('SELECT url, host, depth, error_code AS code FROM pages ORDER BY id').all() as {
        url: string;
        host: string;
        depth: number;
        code: string | null;
      }[];
    } finally {
      db.close();
    }
  };

  it('exits 1 when every seed fails, listing failures by reason with a hint for each', async () => {
    const mixed = join(base, 'mixed-seeds.txt');
    writeFileSync(mixed, `${readFileSync(seeds, 'utf8')}http://nowhere.test/\n`);
    const out = join(base, 'failed');
    // No --allow-loopback: the sandbox's addresses are refused; nowhere.test has no address (*=none).
    const run = await runMain([
      'crawl',
      '--seeds',
      mixed,
      '--out',
      out,
      '--keywords',
      'cpu',
      '--resolve',
      rules,
      '--min-delay-ms',
      '0',
      '--quiet',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `tres: no page could be fetched (4 attempts failed); see the reasons above, then run npx tres crawl --resume ${out} with the options that fix them (a crawl that fetched no page starts again from its seeds)`,
    );
    expect(run.stdout).toContain('pages fetched   4 (4 failed)');
    expect(run.stdout).toMatch(/failures by reason\n\s+TRES_ADDRESS_BLOCKED\s+3 {2}e\.g\. http:\/\//);
    expect(run.stdout).toContain('add --allow-loopback to crawl a server on this machine');
    expect(run.stdout).toMatch(/TRES_DNS\s+1 {2}e\.g\. http:\/\/nowhere\.test\//);
    expect(run.stdout).toContain('--resolve HOST=ADDR:PORT');
  });

  it('runs coverage without --strategy, as the README and --help say', async () => {
    expect(DEFAULT_STRATEGY).toBe('coverage');
    const out = join(base, 'default');
    const run = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'computer',
      '--allow-loopback',
      '--resolve',
      rules,
      '--min-delay-ms',
      '0',
      '--max-pages',
      '3',
      '--quiet',
    ]);
    expect(run.code).toBe(0);
    const name = DEFAULT_STRATEGY;
    expect(run.stdout).toContain(`with strategy ${name}`);
    const readme = readFileSync(README, 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`\`${name}\` is the default`);
  });

  it('shows every default and examples in --help all', async () => {
    const help = await runMain(['crawl', '--help', 'all']);
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/g, ' '); // commander wraps long lines
    for (const expected of [
      '(default: coverage)',
      '(default: 1000)',
      '(default: none)',
      '(default: 8)',
      '(default: 0.5)',
      '(default: "tres/0.1 (+https://github.com/tres-crawler/tres)")',
      'Examples:',
      'Exit codes:',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // Every crawler option's help, up to the next option, names its default.
    const starts = CRAWL_FLAGS.map((f) => text.indexOf(` ${f.flags} `));
    expect(starts.every((s, i) => s > 0 && (i === 0 || s > starts[i - 1]!))).toBe(true);
    starts.forEach((start, i) => {
      const end = starts[i + 1] ?? text.indexOf(' --quiet ');
      expect(text.slice(start, end), CRAWL_FLAGS[i]!.flags).toContain('(default: ');
    });
    for (const sub of [['demo'], ['sandbox', 'serve'], ['sandbox', 'generate']]) {
      const text = await runMain([...sub, '--help']);
      expect(text.stdout, sub.join(' ')).toContain('Examples:');
    }
  });

  it('keeps a crawl within --max-depth, --include, --exclude and --allowed-domains', async () => {
    const [firstSeed] = readFileSync(seeds, 'utf8').split('\n');
    const host = new URL(firstSeed!).hostname;
    const out = join(base, 'scoped');
    const run = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'computer',
      '--allow-loopback',
      '--resolve',
      rules,
      '--min-delay-ms',
      '0',
      '--max-pages',
      '40',
      '--quiet',
      '--max-depth',
      '1',
      '--allowed-domains',
      host,
      '--exclude',
      '/p/1',
      '--include',
      '^http://',
      '--include',
      '[.]test/',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const pages = rows(out);
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages) {
      expect(p.depth).toBeLessThanOrEqual(1);
      expect(p.url).not.toContain('/p/1');
      // Seeds on other hosts are out of scope too: recorded as filtered, never fetched.
      if (p.host !== host) expect(p.code).toBe('TRES_URL_FILTERED');
    }
    // Nor did any out-of-scope link reach the frontier.
    const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
    const links = db.prepare('SELECT url, host, depth FROM outlinks').all() as {
      url: string;
      host: string;
      depth: number;
    }[];
    db.close();
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => l.url.includes('/p/1') || l.host !== host || l.depth > 1)).toEqual([]);
  });

  it('takes the scope from a config file too', async () => {
    const out = join(base, 'scoped-yaml');
    const yaml = join(base, 'scope.yaml');
    const hosts = readFileSync(seeds, 'utf8')
      .trim()
      .split('\n')
      .map((u) => new URL(u).hostname);
    writeFileSync(
      yaml,
      [
        'maxDepth: 0',
        'exclude: ["[?]", "/x/"]',
        `allowedDomains: [${hosts.join(', ')}]`,
        'maxPages: none',
        '',
      ].join('\n'),
    );
    const run = await runMain([
      'crawl',
      '--config',
      yaml,
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'computer',
      '--allow-loopback',
      '--resolve',
      rules,
      '--min-delay-ms',
      '0',
      '--quiet',
    ]);
    expect(run.code).toBe(0);
    expect(rows(out).every((p) => p.depth === 0)).toBe(true);
    const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
    const config = JSON.parse(
      (db.prepare("SELECT value FROM meta WHERE key = 'config'").get() as { value: string }).value,
    );
    db.close();
    expect(config.maxDepth).toBe(0);
    expect(config.maxPages).toBe(false);
    expect(config.urlFilter).toEqual({ excludePatterns: ['[?]', '/x/'], allowedDomains: hosts });
  });
});
