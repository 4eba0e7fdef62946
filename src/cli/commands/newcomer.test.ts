/**
 * What a newcomer meets in the first hour, second round: the README's first crawl with no network
 * leads to the sandbox web, its resume says what happened, a run too short for a speed prints
 * none, and bad input (a port out of range, an unknown option, a malformed seed, a broken YAML
 * file) gets one `tres:` line and exit 2. The CLI runs in this process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../test-cli.js';

describe('tres crawl with no network', () => {
  const base = tempDir('tres-newcomer-');
  let seeds: string;

  beforeAll(() => {
    seeds = join(base, 'seeds.txt');
    writeFileSync(seeds, 'https://www.debian.org/doc/\n');
  });

  // `--resolve '*=none'` makes every host a DNS miss, as on a machine with no network.
  const offline = ['--resolve', '*=none', '--quiet'];

  it('leads to the sandbox web when no seed can be reached, prints no speed over a fraction of a second, and a resume says it fetched nothing again', async () => {
    const out = join(base, 'crawl1');
    const args = [
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'debian,package',
      '--max-pages',
      '20',
    ];
    const first = await runMain([...args, ...offline]);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('no page could be fetched: no host could be reached (TRES_DNS 1)');
    expect(first.stderr).toContain('npx tres sandbox serve');
    expect(first.stderr).toContain('npx tres demo');
    expect(first.stdout).toMatch(/speed +1 attempt in \d\.\d s, too short to measure a speed/);
    expect(first.stdout).not.toMatch(/pages\/s over 0\.\d s/);

    const resumed = await runMain(['crawl', '--resume', out, ...offline]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(
      `tres: warning: ${out} fetched no page before (1 attempt failed: TRES_DNS 1); starting it again`,
    );
    expect(resumed.stderr).toContain('no page could be fetched again: no host could be reached');
    expect(resumed.stderr).toContain('npx tres sandbox serve');
  });
});

describe('bad input gets one line and exit 2', () => {
  const base = tempDir('tres-newcomer-input-');

  beforeAll(() => {});

  /** Runs `tres ARGS`, expects exit 2 and one stderr line starting `tres: `; returns the line. */
  async function refused(args: string[]): Promise<string> {
    const run = await runMain(args);
    expect(run.code, run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^tres: /);
    return lines[0]!;
  }

  it('refuses a --ui-port above 65535 or not a number, for tres crawl and tres ui', async () => {
    const seeds = join(base, 'seeds.txt');
    writeFileSync(seeds, 'https://www.debian.org/doc/\n');
    const crawl = ['crawl', '--seeds', seeds, '--out', join(base, 'c1'), '--keywords', 'debian'];
    expect(await refused([...crawl, '--ui-port', '70000'])).toBe(
      'tres: --ui-port must be a TCP port from 0 to 65535 (0: any free port), got "70000"',
    );
    expect(await refused([...crawl, '--ui-port', 'abc'])).toContain('--ui-port must be a TCP port');
    expect(await refused(['ui', '--ui-port', '99999', join(base, 'c1')])).toContain(
      '--ui-port must be a TCP port from 0 to 65535',
    );
  });

  it('refuses an unknown option in the tres: style, with the help to read', async () => {
    expect(await refused(['crawl', '--max-pagse', '3'])).toBe(
      "tres: unknown option '--max-pagse' (did you mean --max-pages?); see tres crawl --help",
    );
    expect(await refused(['sandbox', 'serve', '--bogus'])).toBe(
      "tres: unknown option '--bogus'; see tres sandbox serve --help",
    );
  });

  it('names a malformed seed URL as malformed', async () => {
    const seeds = join(base, 'bad-seeds.txt');
    writeFileSync(seeds, 'http://[bad\n');
    const line = await refused(['crawl', '--seeds', seeds, '--out', join(base, 'c2'), '--keywords', 'a']);
    expect(line).toContain(`${seeds}:1: "http://[bad" (malformed URL`);
  });

  it('reports a YAML error in one line with the file and line', async () => {
    const config = join(base, 'crawl.yaml');
    writeFileSync(config, 'keywords: debian\nmaxPages: [1\n');
    const line = await refused(['crawl', '--config', config, '--out', join(base, 'c3')]);
    expect(line).toMatch(
      new RegExp(`^tres: config file ${config} is not valid YAML or JSON at line \\d+, column \\d+: `),
    );
  });
});

describe('tres crawl --help', () => {
  const flagsIn = (text: string) => new Set(text.match(/^ {2}(--[a-z-]+)/gm)?.map((f) => f.trim()));

  it('shows the common options on one screen and the rest by topic, every option in some topic', async () => {
    const first = await runMain(['crawl', '--help']);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n').length).toBeLessThanOrEqual(40);
    expect(first.stdout).toContain('--seeds <file>');
    expect(first.stdout).toContain('tres crawl --help TOPIC');
    expect(first.stdout).not.toContain('--min-delay-ms');
    const topics = [...first.stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]!);
    expect(topics).toContain('politeness');

    const politeness = await runMain(['crawl', '--help', 'politeness']);
    expect(politeness.code).toBe(0);
    expect(politeness.stdout).toContain('--min-delay-ms <ms>');
    expect((await runMain(['help', 'crawl', 'politeness'])).stdout).toBe(politeness.stdout);
    expect((await runMain(['crawl', '--help', 'dashboard'])).stdout).toContain('implies --ui');

    const all = flagsIn((await runMain(['crawl', '--help', 'all'])).stdout);
    const reached = new Set(flagsIn(first.stdout));
    for (const topic of topics)
      for (const f of flagsIn((await runMain(['crawl', '--help', topic])).stdout)) reached.add(f);
    expect([...all].filter((f) => !reached.has(f))).toEqual([]);
    expect(all.size).toBeGreaterThan(30);

    const unknown = await runMain(['crawl', '--help', 'speed']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('tres: no help topic "speed" for tres crawl; the topics: scope,');
  });
});
