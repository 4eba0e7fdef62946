import { ConfigError, TresError } from 'tres-crawler';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandRunner } from './apt.js';
import { cacheLayout } from './cache-layout.js';
import { fetchPackages, isExtracted } from './fetch-packages.js';
import { type DocwebFixture, makeDocwebFixture } from './test-fixture.js';

let fx: DocwebFixture;
const PACKAGES = ['hw-doc', 'stats-doc', 'music-doc'];
const fetch = (run: CommandRunner, downloadBatchSize?: number) =>
  fetchPackages({
    layout: cacheLayout(fx.cacheDir),
    packages: PACKAGES,
    run,
    aptListsDir: fx.aptListsDir,
    downloadBatchSize,
  });
const downloadCalls = () =>
  fx.calls.filter((c) => c.startsWith('apt-get download') && !c.includes('--print-uris'));

beforeEach(() => {
  fx = makeDocwebFixture();
});
afterEach(() => fx.cleanup());

describe('fetchPackages', () => {
  it('downloads several packages with one apt-get download call per batch', async () => {
    const report = await fetch(fx.run, 2);
    expect(downloadCalls()).toEqual(['apt-get download hw-doc stats-doc', 'apt-get download music-doc']);
    expect(report).toMatchObject({ downloaded: 3, extracted: 3, downloadBytes: 3000 });
    for (const p of PACKAGES) expect(isExtracted(cacheLayout(fx.cacheDir), p)).toBe(true);
  });

  it('puts all packages in one call by default when they fit one batch', async () => {
    await fetch(fx.run);
    expect(downloadCalls()).toEqual(['apt-get download hw-doc stats-doc music-doc']);
  });

  it('retries a failed batch one package at a time and goes on when those succeed', async () => {
    let isFirst = true;
    const flaky: CommandRunner = async (command, args, opts) => {
      if (
        command === 'apt-get' &&
        args[0] === 'download' &&
        args.length > 2 &&
        args[1] !== '--print-uris' &&
        isFirst
      ) {
        isFirst = false;
        fx.calls.push([command, ...args].join(' '));
        return { code: 100, stdout: '', stderr: 'E: Failed to fetch (temporary failure)' };
      }
      return fx.run(command, args, opts);
    };
    const report = await fetch(flaky, 3);
    expect(downloadCalls()).toEqual([
      'apt-get download hw-doc stats-doc music-doc',
      'apt-get download hw-doc',
      'apt-get download stats-doc',
      'apt-get download music-doc',
    ]);
    expect(report).toMatchObject({ downloaded: 3, extracted: 3 });
  });

  it('names the package apt cannot download when its batch fails', async () => {
    // The archive lost stats-doc's file: apt fetches the others and fails the call.
    const broken: CommandRunner = async (command, args, opts) => {
      if (
        command !== 'apt-get' ||
        args[0] !== 'download' ||
        args[1] === '--print-uris' ||
        !args.includes('stats-doc')
      )
        return fx.run(command, args, opts);
      const others = args.filter((a) => a !== 'stats-doc');
      if (others.length > 1) await fx.run(command, others, opts);
      fx.calls.push([command, ...args].join(' '));
      return { code: 100, stdout: '', stderr: 'E: Failed to fetch stats-doc 404 Not Found' };
    };
    const failure = fetch(broken, 3);
    await expect(failure).rejects.toBeInstanceOf(TresError);
    await expect(failure).rejects.toThrow(/apt-get download stats-doc failed/);
  });

  it('rejects a batch size below 1', async () => {
    await expect(fetch(fx.run, 0)).rejects.toBeInstanceOf(ConfigError);
  });
});
