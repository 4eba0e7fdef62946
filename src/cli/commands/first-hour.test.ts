/**
 * A new user's first hour: a failed first crawl leads somewhere,
 * printed commands paste after the README's set-up, the speed of a resume is this run's, and
 * input that would silently do the wrong thing is refused with what to do. The CLI runs in this
 * process against a small sandbox web on loopback.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closestKey } from '../../config/index.js';
import {
  createSyntheticWeb,
  type ReplayServer,
  sandboxResolveRules,
  startReplayServer,
} from '../../sandbox/index.js';
import { runMain } from '../test-cli.js';
import { isTresOnPath, tresCommand } from '../tres-command.js';

describe("a new user's first hour with tres crawl", () => {
  let server: ReplayServer;
  const base = tempDir('tres-first-hour-');
  let seeds: string;
  const resolveRules = () => ['--resolve', sandboxResolveRules(server).join(',')];
  const fast = ['--min-delay-ms', '0', '--quiet'];

  beforeAll(async () => {
    const web = createSyntheticWeb({
      seed: 30,
      hostCount: 5,
      pageCount: 400,
      topics: ['computer hardware', 'cooking recipes'],
    });
    server = await startReplayServer({ sites: web.sites() });
    seeds = join(base, 'seeds.txt');
    writeFileSync(seeds, `${web.seedUrls(2, { relevant: true }).join('\n')}\n`);
  });
  afterAll(async () => {
    await server.close();
  });

  it('after a first crawl that fetched nothing, the printed way on (a resume with --allow-loopback) crawls from the seeds', async () => {
    const out = join(base, 'c22');
    const crawl = [
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'computer,hardware',
      '--max-pages',
      '8',
    ];
    const failed = await runMain([...crawl, ...resolveRules(), ...fast]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('add --allow-loopback');
    expect(failed.stderr).toContain(`run npx tres crawl --resume ${out} with the options that fix them`);
    // The same command again: refused, and the message says what to do instead.
    const again = await runMain([...crawl, ...resolveRules(), ...fast]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`it fetched no page: run it again with --resume ${out}`);
    const resumed = await runMain(['crawl', '--resume', out, '--allow-loopback', ...fast]);
    expect(resumed.stderr).toContain(
      `tres: warning: ${out} fetched no page before (2 attempts failed: TRES_ADDRESS_BLOCKED 2); starting it again from its 2 seeds`,
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('pages fetched   8 (0 failed)');
    expect(resumed.stdout).not.toContain('TRES_ADDRESS_BLOCKED');
  });

  it('counts only this run in the speed of a resume, and says why a finished crawl fetched nothing', async () => {
    const out = join(base, 'speed');
    const args = ['--allow-loopback', ...resolveRules(), ...fast];
    const first = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'cpu',
      '--max-pages',
      '6',
      ...args,
    ]);
    expect(first.code).toBe(0);
    // Under a second a run prints its attempts and time, not a speed.
    const speed = '([\\d.]+ pages/s over [\\d.]+ s|\\d+ attempts in [\\d.]+ s, too short to measure a speed)';
    expect(first.stdout).toMatch(new RegExp(`speed {11}${speed}\n`));
    const more = await runMain(['crawl', '--resume', out, '--max-pages', '10', '--quiet']);
    expect(more.code).toBe(0);
    expect(more.stdout).toMatch(new RegExp(`speed {11}${speed} \\(this run: 4 of the 10 attempts\\)`));
    const nothing = await runMain(['crawl', '--resume', out, '--quiet']);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain(
      'nothing fetched in this run: the budget (--max-pages 10) was already spent; resume with a larger --max-pages to crawl on',
    );
  });

  it('refuses an --out folder that holds other files, and leaves them as they were', async () => {
    const thesis = join(base, 'thesis');
    mkdirSync(thesis);
    writeFileSync(join(thesis, 'thesis.txt'), 'chapter 1');
    const run = await runMain(['crawl', '--seeds', seeds, '--out', thesis, '--keywords', 'cpu', ...fast]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `tres: --out ${thesis}: holds other files (thesis.txt); a crawl goes into a new or empty folder: choose another --out, such as ${join(thesis, 'crawl1')}`,
    );
    expect(readFileSync(join(thesis, 'thesis.txt'), 'utf8')).toBe('chapter 1');
    expect(existsSync(join(thesis, 'crawl.sqlite'))).toBe(false);
  });

  it('refuses seed lines with words after the URL or without a scheme, and a folder given as --seeds', async () => {
    const bad = join(base, 'bad-seeds.txt');
    writeFileSync(bad, 'http://host.test/ extra words\nexample.org/docs\n');
    const out = join(base, 'never');
    const run = await runMain(['crawl', '--seeds', bad, '--out', out, '--keywords', 'cpu', ...fast]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${bad}:1: "http://host.test/ extra words" (one URL per line, without spaces`,
    );
    expect(run.stderr).toContain(
      `${bad}:2: "example.org/docs" (no scheme: add https:// or http://, as in "https://example.org/docs")`,
    );
    const dir = await runMain(['crawl', '--seeds', base, '--out', out, '--keywords', 'cpu', ...fast]);
    expect(dir.code).toBe(2);
    expect(dir.stderr.trim()).toBe(
      `tres: cannot read --seeds file ${base}: it is a folder; give the file inside it (one item per line)`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('suggests another port when --ui-port is in use', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      const run = await runMain([
        'crawl',
        '--seeds',
        seeds,
        '--out',
        join(base, 'ui-busy'),
        '--keywords',
        'cpu',
        '--ui-port',
        String(port),
        ...fast,
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `--ui-port: the dashboard cannot listen on 127.0.0.1 port ${port} (EADDRINUSE); the port is in use: choose another, such as --ui-port ${port + 1}, or --ui-port 0 for any free port`,
      );
    } finally {
      busy.close();
    }
  });

  it('export refuses to overwrite an existing --out file unless --force', async () => {
    const crawl = join(base, 'exported');
    const args = ['--allow-loopback', ...resolveRules(), ...fast];
    expect(
      (
        await runMain([
          'crawl',
          '--seeds',
          seeds,
          '--out',
          crawl,
          '--keywords',
          'cpu',
          '--max-pages',
          '3',
          ...args,
        ])
      ).code,
    ).toBe(0);
    const target = join(base, 'seeds-copy.txt');
    writeFileSync(target, 'http://keep.me/\n');
    const run = await runMain(['export', crawl, '--out', target]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `tres: --out ${target}: the file exists and was left as it is; add --force to overwrite it, or choose another --out`,
    );
    expect(readFileSync(target, 'utf8')).toBe('http://keep.me/\n');
    const forced = await runMain(['export', crawl, '--out', target, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^id,url,/);
  });

  it('says "did you mean" for a mistyped config key', async () => {
    const config = join(base, 'typo.yaml');
    writeFileSync(config, 'maxPage: 50\n');
    const run = await runMain([
      'crawl',
      '--seeds',
      seeds,
      '--out',
      join(base, 'typo'),
      '--keywords',
      'cpu',
      '--config',
      config,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`config file ${config}: unknown option "maxPage"; did you mean "maxPages"?`);
    expect(closestKey('min_delay_ms', ['minDelayMs', 'maxPages'])).toBe('minDelayMs');
    expect(closestKey('color', ['minDelayMs', 'maxPages'])).toBeUndefined();
  });
});

describe('other commands a new user meets', () => {
  const base = tempDir('tres-first-hour-cmds-');
  beforeAll(() => {});

  it('demo rejects an unknown strategy before it starts the sandbox', async () => {
    const run = await runMain(['demo', '--strategies', 'tres,foo']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(''); // no "sandbox web: ..." line: nothing was started
    expect(run.stderr).toContain('--strategies: unknown strategy "foo"');
  });

  it('tres ui takes --ui-port and --ui-host, the names tres crawl uses for its dashboard', async () => {
    const help = await runMain(['ui', '--help']);
    expect(help.stdout).toContain('--ui-port <n>');
    expect(help.stdout).toContain('--ui-host <address>');
    expect(help.stdout).not.toMatch(/ --port /);
  });

  it('prints npx tres after the set-up, and tres when this bin is on the PATH', () => {
    const binDir = join(base, 'bin');
    mkdirSync(binDir);
    symlinkSync(resolve('bin/tres.js'), join(binDir, 'tres'));
    expect(tresCommand('crawl --resume c1', { PATH: '/usr/bin' })).toBe('npx tres crawl --resume c1');
    expect(isTresOnPath({ PATH: `/usr/bin:${binDir}` })).toBe(true);
    expect(tresCommand('crawl --resume c1', { PATH: `/usr/bin:${binDir}` })).toBe('tres crawl --resume c1');
    expect(tresCommand('demo', { PATH: binDir, npm_command: 'exec' })).toBe('npx tres demo');
    // The project's node_modules/.bin is on the PATH only inside `npm run` and npx, not the shell.
    const npmBin = join(base, 'project', 'node_modules', '.bin');
    mkdirSync(npmBin, { recursive: true });
    symlinkSync(resolve('bin/tres.js'), join(npmBin, 'tres'));
    expect(isTresOnPath({ PATH: `/usr/bin:${npmBin}` })).toBe(false);
  });
});
