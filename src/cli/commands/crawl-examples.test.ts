/**
 * `tres crawl --examples`: example relevant pages as a folder of files or a file of URLs, read
 * before anything is written; bad input gets one line naming the flag.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyntheticWeb } from '../../sandbox/index.js';
import { runMain } from '../test-cli.js';
import { type SandboxCrawl, startSandboxCrawl } from '../test-sandbox-crawl.js';

describe('tres crawl --examples', () => {
  let sandbox: SandboxCrawl;
  let web: SyntheticWeb;
  let base: string;
  let seeds: string;
  const net = () => ['--allow-loopback', '--min-delay-ms', '0', '--resolve', sandbox.rules];
  const crawl = (out: string, extra: string[]) =>
    runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'computer,hardware',
      '--max-pages',
      '30',
      '--quiet',
      ...net(),
      ...extra,
    ]);

  beforeAll(async () => {
    sandbox = await startSandboxCrawl({
      seed: 5,
      hostCount: 6,
      pageCount: 600,
      seedCount: 1,
      prefix: 'tres-examples-',
    });
    ({ web, base, seedsFile: seeds } = sandbox);
  });
  afterAll(() => sandbox.close());

  it('crawls with examples given as URLs and as files, and stores where they came from', async () => {
    const relevant = [...web.labels()].filter((l) => l.isRelevant).map((l) => l.url);
    const urls = join(base, 'urls.txt');
    writeFileSync(urls, `# two pages of the topic\n${relevant[3]}\n${relevant[7]}\n`);
    const fromUrls = await crawl(join(base, 'by-url'), ['--examples', urls]);
    expect(fromUrls.stderr).toBe('');
    expect(fromUrls.code).toBe(0);
    const db = new Database(join(base, 'by-url', 'crawl.sqlite'), { readonly: true });
    const config = JSON.parse(
      (db.prepare("SELECT value FROM meta WHERE key = 'config'").get() as { value: string }).value,
    ) as { examplesSource?: string; judge?: string };
    db.close();
    expect(config.examplesSource).toBe(urls);
    expect(config.judge).toBe('cold-start');
    // A resume makes the same judge from the stored path.
    const resumed = await runMain([
      'crawl',
      '--resume',
      join(base, 'by-url'),
      '--max-pages',
      '40',
      '--quiet',
      ...net(),
    ]);
    expect(resumed.stderr).not.toContain('tres: --');
    expect(resumed.stderr).not.toContain('was crawled with the model');
    expect(resumed.code).toBe(0);

    const folder = join(base, 'pages');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'a.html'),
      '<html><head><title>Motherboard chipsets</title></head><body><p>The chipset links the processor, memory and the PCI bus on the motherboard.</p></body></html>',
    );
    writeFileSync(
      join(folder, 'b.txt'),
      'Graphics cards and sound cards plug into expansion slots of the mainboard.',
    );
    writeFileSync(join(folder, 'notes.md'), 'not read');
    const fromFiles = await crawl(join(base, 'by-file'), ['--examples', folder]);
    expect(fromFiles.stderr).toBe('');
    expect(fromFiles.code).toBe(0);
  });

  it('refuses bad examples with one line naming --examples, before the output folder is made', async () => {
    const out = join(base, 'never');
    const missing = join(base, 'nope.txt');
    const badLine = join(base, 'bad.txt');
    writeFileSync(badLine, 'http://ok.test/\nnot a url\n');
    const empty = join(base, 'empty');
    mkdirSync(empty);
    const dead = join(base, 'dead.txt');
    writeFileSync(dead, `${web.seedUrls(1)[0]}no-such-page.html\n`);
    const cases: [string[], string][] = [
      [['--examples', missing], `tres: --examples ${missing}: no such file or folder`],
      [['--examples', badLine], `tres: --examples ${badLine} line 2: "not a url" is not an http(s) URL`],
      [['--examples', empty], `tres: --examples ${empty}: the folder holds no .html, .htm or .txt file`],
      [
        ['--examples', dead],
        `tres: --examples ${dead}: ${web.seedUrls(1)[0]}no-such-page.html gave HTTP 404`,
      ],
      [['--examples', empty, '--model', base], 'tres: --examples: a --model is a judge trained already'],
    ];
    for (const [extra, message] of cases) {
      const run = await crawl(out, extra);
      expect(run.code, extra.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
      expect(run.stderr.trim().startsWith(message), run.stderr).toBe(true);
    }
    expect(() => readFileSync(join(out, 'crawl.sqlite'))).toThrow();
  });
});
