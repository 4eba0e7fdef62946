/**
 * `tres crawl` refuses bad commands before it writes anything:
 * every test here runs the CLI in this process against a small sandbox web on loopback.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoTopicCorpus } from '../../relevance/test-fixtures.js';
import { runMain } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

/** sha256 of every file under `dir` by relative path: equal hashes mean a byte-identical folder. */
function hashFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = join(rel, name);
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else
        out[path] = createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

describe('tres crawl refuses a bad command without touching --out', () => {
  let sandbox: SandboxCrawl;
  let base: string;
  let seeds: string;
  let crawl: string;

  const common = () => ['--allow-loopback', '--min-delay-ms', '0', '--resolve', sandbox.rules];
  const storedCount = (dir: string) => {
    const db = new Database(join(dir, 'crawl.sqlite'), { readonly: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM pages').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    sandbox = await startSandboxCrawl({
      seed: 5,
      hostCount: 6,
      pageCount: 600,
      seedCount: 2,
      prefix: 'tres-refuse-',
    });
    ({ base, seedsFile: seeds } = sandbox);
    crawl = join(base, 'crawl2');
    const first = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      crawl,
      '--keywords',
      'computer,hardware',
      '--strategy',
      'bfs',
      '--max-pages',
      '12',
      '--concurrency',
      '2',
      '--quiet',
      ...common(),
    ]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
  });
  afterAll(() => sandbox.close());

  it('leaves a crawl folder byte-identical when a new crawl, a bad strategy, config file or resume change is refused', async () => {
    const before = hashFolder(crawl);
    const refused = [
      ['crawl', '--out', crawl, '--seeds', seeds, '--keywords', 'cpu', '--max-pages', '50', ...common()],
      ['crawl', '--out', crawl, '--seeds', seeds, '--keywords', 'cpu', '--strategy', 'nosuch'],
      ['crawl', '--out', crawl, '--seeds', seeds, '--keywords', 'cpu', '--config', join(base, 'nosuch.yaml')],
      ['crawl', '--resume', crawl, '--strategy', 'nosuch'],
      ['crawl', '--resume', crawl, '--strategy', 'best-first'],
      ['crawl', '--resume', crawl, '--keywords', 'cpu'],
      ['crawl', '--resume', crawl, '--max-pages', '0'],
    ];
    const messages: string[] = [];
    for (const args of refused) {
      const run = await runMain(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
      messages.push(run.stderr.trim());
      expect(hashFolder(crawl), args.join(' ')).toEqual(before);
    }
    expect(messages[0]).toContain('already holds a crawl');
    expect(messages[1]).toContain('--strategy: unknown strategy "nosuch"');
    expect(messages[2]).toContain('nosuch.yaml');
    expect(messages[4]).toContain('this crawl was started with the strategy bfs');
    expect(messages[5]).toContain('--keywords: this crawl was started with the keywords computer,hardware');
    // The stored options were not rewritten: the resume keeps strategy bfs and budget 12.
    const resumed = await runMain(['crawl', '--resume', crawl, '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('crawl finished (max-pages) with strategy bfs');
    expect(storedCount(crawl)).toBe(12);
  });

  it('resumes with the options stored in crawl.sqlite and warns, one line each, about flags that change them', async () => {
    const out = join(base, 'warned');
    const first = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'computer',
      '--strategy',
      'bfs',
      '--max-pages',
      '5',
      '--concurrency',
      '1',
      '--quiet',
      ...common(),
    ]);
    expect(first.code).toBe(0);
    expect(existsSync(join(out, 'tres-crawl.json'))).toBe(false);
    const resumed = await runMain([
      'crawl',
      '--resume',
      out,
      '--max-pages',
      '9',
      '--concurrency',
      '2',
      '--strategy',
      'bfs',
      '--quiet',
    ]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr.trim().split('\n')).toEqual([
      'tres: warning: --max-pages 9 replaces 5, the value this crawl was started with',
      'tres: warning: --concurrency 2 replaces 1, the value this crawl was started with',
    ]);
    expect(resumed.stdout).toContain('with strategy bfs');
    expect(storedCount(out)).toBe(9);
  });

  it('refuses bad seeds with file and line, leaves no folder behind, and the fixed command then runs', async () => {
    const bad = join(base, 'bad-seeds.txt');
    writeFileSync(
      bad,
      `# my seeds\n${readFileSync(seeds, 'utf8').split('\n')[0]}\n\nftp://example.org/\nnot a url\n`,
    );
    const out = join(base, 'new', 'nested', 'crawl');
    const run = await runMain([
      'crawl',
      '--seeds',
      bad,
      '--out',
      out,
      '--keywords',
      'cpu',
      '--quiet',
      ...common(),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `tres: --seeds file has lines that are not http(s) URLs: ${bad}:4: "ftp://example.org/" (only http:// and https:// URLs can be crawled); ${bad}:5: "not a url" (one URL per line, without spaces: write a space in a URL as %20, and put notes after #)`,
    );
    expect(existsSync(join(base, 'new'))).toBe(false);
    const fixed = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'cpu',
      '--max-pages',
      '3',
      '--quiet',
      ...common(),
    ]);
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(0);
    expect(storedCount(out)).toBe(3);
  });

  it('gives one line and exit 2 for an --out that is a file, under a file, or under /proc (no hang)', async () => {
    const file = join(base, 'a-file');
    writeFileSync(file, 'x');
    const cases: [string, string][] = [
      [file, 'is a file, not a folder'],
      [join(file, 'sub', 'crawl'), `${file} is a file, not a folder`],
      ['/proc/nope', 'cannot create /proc/nope'],
    ];
    for (const [out, expected] of cases) {
      const started = Date.now();
      const run = await runMain(['crawl', '--seeds', seeds, '--out', out, '--keywords', 'cpu', '--quiet']);
      expect(run.code, out).toBe(2);
      expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
      expect(run.stderr).toContain(`--out ${out}: ${expected}`);
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('names the flags as typed, with one message for --max-pages 0 and -5, and config keys with their file', async () => {
    const out = join(base, 'never');
    const run = (extra: string[]) =>
      runMain(['crawl', '--seeds', seeds, '--out', out, '--keywords', 'cpu', ...extra]);
    const expectations: [string[], string][] = [
      [['--max-pages', '0'], 'tres: --max-pages must be a whole number >= 1 or none, got "0"'],
      [['--max-pages', '-5'], 'tres: --max-pages must be a whole number >= 1 or none, got "-5"'],
      [['--concurrency', '0'], 'tres: --concurrency must be a whole number >= 1, got "0"'],
      [
        ['--threshold', '2'],
        'tres: --threshold must be a probability above 0 and at most 1 (e.g. 0.5), got "2"',
      ],
      [['--max-depth', 'deep'], 'tres: --max-depth must be a whole number >= 0 or none, got "deep"'],
      [['--include', '(unclosed'], 'tres: --include: "(unclosed" is not a regular expression'],
      [['--user-agent', 'mybot'], 'tres: --user-agent "mybot" has no contact URL or e-mail address'],
      [['--domain-limit', 'lots'], 'tres: --domain-limit: "lots" is not a domain limit'],
    ];
    for (const [extra, message] of expectations) {
      const r = await run(extra);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stderr.trim().startsWith(message), r.stderr).toBe(true);
    }
    const noTopic = await runMain(['crawl', '--seeds', seeds, '--out', out]);
    expect(noTopic.stderr.trim()).toBe(
      'tres: missing the topic: give --keywords, --keywords-file or --model (the relevance judge)',
    );
    const yaml = join(base, 'bad.yaml');
    writeFileSync(yaml, 'maxPages: 0\n');
    const fromFile = await run(['--config', yaml]);
    expect(fromFile.stderr.trim()).toBe(
      `tres: maxPages in ${yaml} must be a whole number >= 1 or none, got 0`,
    );
    writeFileSync(yaml, 'max-pages: 10\n');
    const kebab = await run(['--config', yaml]);
    expect(kebab.stderr).toContain('unknown option "max-pages"; did you mean "maxPages"?');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --port of a port in use with one line and exit 2', async () => {
    const busy = await runMain([
      'sandbox',
      'serve',
      '--pages',
      '50',
      '--hosts',
      '2',
      '--no-faults',
      '--port',
      String(sandbox.server.port),
    ]);
    expect(busy.code).toBe(2);
    expect(busy.stderr.trim()).toBe(
      `tres: --port ${sandbox.server.port}: the port is in use (EADDRINUSE); choose another or leave --port out for any free port`,
    );
  });

  it('creates the missing folders of a new --out one level at a time', async () => {
    const out = join(base, 'deep', 'er', 'crawl');
    mkdirSync(join(base, 'deep'));
    const run = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'cpu',
      '--max-pages',
      '2',
      '--quiet',
      ...common(),
    ]);
    expect(run.code).toBe(0);
    expect(storedCount(out)).toBe(2);
  });

  it('resumes a crawl judged by a --model with that model, stored as an absolute path, and refuses another', async () => {
    for (const d of twoTopicCorpus(10, 20, 'crawl')) {
      const dir = join(base, 'corpus', d.label === 1 ? 'rel' : 'irr');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${d.source.replace('/', '-')}.txt`), d.text);
    }
    const model = join(base, 'model');
    const train = [
      'train',
      '--relevant',
      join(base, 'corpus', 'rel'),
      '--irrelevant',
      join(base, 'corpus', 'irr'),
    ];
    expect((await runMain([...train, '--model', 'nb', '--out', model])).code).toBe(0);
    const out = join(base, 'judged');
    const args = ['--seeds', seeds, '--out', out, '--model', relative(process.cwd(), model), '--quiet'];
    const first = await runMain(['crawl', ...args, '--max-pages', '4', ...common()]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const db = new Database(join(out, 'crawl.sqlite'), { readonly: true });
    const row = db.prepare("SELECT value FROM meta WHERE key = 'config'").get() as { value: string };
    db.close();
    const config = JSON.parse(row.value);
    expect(config.judgeSource).toBe(model);
    expect(isAbsolute(config.judgeSource)).toBe(true);
    const resumed = await runMain(['crawl', '--resume', out, '--max-pages', '6', '--quiet']);
    expect(resumed.code).toBe(0);
    expect(storedCount(out)).toBe(6);
    const other = await runMain(['crawl', '--resume', out, '--model', join(base, 'elsewhere')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`--model: this crawl was started with the judge ${model}`);
  });

  it('resumes a folder from before the config was stored in crawl.sqlite from its tres-crawl.json', async () => {
    const out = join(base, 'legacy');
    const common5 = ['--seeds', seeds, '--out', out, '--keywords', 'computer', '--quiet', ...common()];
    expect((await runMain(['crawl', ...common5, '--strategy', 'random', '--max-pages', '3'])).code).toBe(0);
    const db = new Database(join(out, 'crawl.sqlite'));
    db.prepare("DELETE FROM meta WHERE key = 'config'").run();
    db.close();
    const legacy = {
      seeds,
      keywords: ['computer'],
      strategy: 'bfs',
      maxPages: 5,
      minDelayMs: 0,
      allowLoopback: true,
    };
    writeFileSync(
      join(out, 'tres-crawl.json'),
      JSON.stringify({ ...legacy, resolve: common()[4]!.split(',') }),
    );
    const resumed = await runMain(['crawl', '--resume', out, '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(resumed.stdout).toContain('with strategy bfs');
    expect(storedCount(out)).toBe(5);
  });
});
