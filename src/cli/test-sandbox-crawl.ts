/**
 * Test support: a generated web served on loopback, a temporary folder, a seeds file and the
 * `tres crawl` flags that crawl that web: the set-up of the tests that make a stored crawl and
 * then damage it, fill its disk or put it on read-only media (commands/repair.test.ts,
 * storage-faults.test.ts, read-only-media.test.ts). Kept beside test-cli.ts rather
 * than with the store's test code because it starts a sandbox web, which the store must not
 * import.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSyntheticWeb, keywordsOf, sandboxResolveRules, startReplayServer } from '../sandbox/index.js';

/** What {@link startSandboxCrawl} started. */
export interface SandboxCrawl {
  /** A fresh temporary folder for the test file's crawls (removed by `close`). */
  base: string;
  /** A file of 3 relevant seed URLs of the web, in `base`. */
  seedsFile: string;
  /** `--keywords` of the topic, `--min-delay-ms 0`, `--allow-loopback`, `--resolve` to the web, `--quiet`. */
  flags: string[];
  /** Stops the web and removes `base`. */
  close(): Promise<void>;
}

/**
 * Serves a generated web of 30 hosts and `pageCount` pages on 'computer hardware' (and cooking
 * recipes) made from `seed`, on loopback.
 * @param prefix of the temporary folder's name
 */
export async function startSandboxCrawl(options: {
  seed: number;
  pageCount: number;
  prefix: string;
}): Promise<SandboxCrawl> {
  const topic = 'computer hardware';
  const web = createSyntheticWeb({
    seed: options.seed,
    hostCount: 30,
    pageCount: options.pageCount,
    topics: [topic, 'cooking recipes'],
    relevantTopic: topic,
  });
  const server = await startReplayServer({ sites: web.sites() });
  const base = mkdtempSync(join(tmpdir(), options.prefix));
  const seedsFile = join(base, 'seeds.txt');
  writeFileSync(seedsFile, `${web.seedUrls(3, { relevant: true }).join('\n')}\n`);
  return {
    base,
    seedsFile,
    flags: [
      ...['--keywords', keywordsOf(topic).join(',')],
      ...['--min-delay-ms', '0', '--allow-loopback'],
      ...['--resolve', sandboxResolveRules(server).join(','), '--quiet'],
    ],
    async close() {
      await server.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
