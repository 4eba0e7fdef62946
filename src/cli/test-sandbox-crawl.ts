/**
 * Test support: a generated web served on loopback, a temporary folder, a seeds file and the
 * `tres crawl` flags that crawl that web: the set-up of the CLI tests that crawl a sandbox web.
 * Kept beside test-cli.ts rather than with the store's test code because it starts a sandbox
 * web, which the store must not import.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSyntheticWeb,
  type HandlerSite,
  keywordsOf,
  type ReplayServer,
  type SyntheticWeb,
  sandboxResolveRules,
  startReplayServer,
} from '../sandbox/index.js';

/** What {@link startSandboxCrawl} makes. */
export interface SandboxCrawlOptions {
  /** The generated web's seed. */
  seed: number;
  pageCount: number;
  /** Prefix of the temporary folder's name. */
  prefix: string;
  /** @default 30 */
  hostCount?: number;
  /** The web's two topics; the first is the relevant one, the crawl's. @default ['computer hardware', 'cooking recipes'] */
  topics?: readonly [string, string];
  /** Relevant seed URLs in the seeds file. @default 3 */
  seedCount?: number;
  /** A line written before the seed URLs (a comment, to show comments are read). @default none */
  seedsComment?: string;
}

/** What {@link startSandboxCrawl} started. */
export interface SandboxCrawl {
  /** A fresh temporary folder for the test file's crawls (removed by `close`). */
  base: string;
  /** A file of `seedCount` relevant seed URLs of the web, in `base`. */
  seedsFile: string;
  /** `--keywords` of the topic, `--min-delay-ms 0`, `--allow-loopback`, `--resolve` to the web, `--quiet`. */
  flags: string[];
  /** The generated web. */
  web: SyntheticWeb;
  server: ReplayServer;
  /** The `--resolve` rules that send the web's host names to the server. */
  rules: string;
  /** Page requests the server answered, by host and path (`host/path?query`). */
  requests: Map<string, number>;
  /** Stops the web and removes `base`. */
  close(): Promise<void>;
}

/** Serves a generated web of `hostCount` hosts and `pageCount` pages made from `seed`, on loopback. */
export async function startSandboxCrawl(options: SandboxCrawlOptions): Promise<SandboxCrawl> {
  const topics = options.topics ?? ['computer hardware', 'cooking recipes'];
  const topic = topics[0];
  const web = createSyntheticWeb({
    seed: options.seed,
    hostCount: options.hostCount ?? 30,
    pageCount: options.pageCount,
    topics: [...topics],
    relevantTopic: topic,
  });
  const requests = new Map<string, number>();
  const sites: HandlerSite[] = web.sites().map((site) => ({
    ...site,
    handle: (req: IncomingMessage, res, rel) => {
      const key = `${req.headers.host}${req.url}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
      return site.handle(req, res, rel);
    },
  }));
  const server = await startReplayServer({ sites });
  const base = mkdtempSync(join(tmpdir(), options.prefix));
  const seedsFile = join(base, 'seeds.txt');
  const comment = options.seedsComment === undefined ? '' : `${options.seedsComment}\n`;
  writeFileSync(
    seedsFile,
    `${comment}${web.seedUrls(options.seedCount ?? 3, { relevant: true }).join('\n')}\n`,
  );
  const rules = sandboxResolveRules(server).join(',');
  return {
    base,
    seedsFile,
    flags: [
      ...['--keywords', keywordsOf(topic).join(',')],
      ...['--min-delay-ms', '0', '--allow-loopback'],
      ...['--resolve', rules, '--quiet'],
    ],
    web,
    server,
    rules,
    requests,
    async close() {
      await server.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
