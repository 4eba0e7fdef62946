/**
 * A benchmark topic and the web it lives on. A topic file names its web in an optional `web`
 * field, so adding a topic (or a web) needs no code change:
 *
 * ```yaml
 * web: docweb            # the default: a DocWeb topic (lab/src/docweb/topic.ts), labels from its rules
 * ---
 * name: synthetic-hardware
 * web:
 *   synthetic: { seed: 7, hostCount: 40, pageCount: 4000, relevantTopic: computer hardware }
 *   # or  synthetic: ./web-folder   (made by `tres sandbox generate`, relative to this file)
 * keywords: [computer, hardware]   # optional: the words of relevantTopic
 * seeds: [http://...]              # optional: 5 relevant home pages of the web
 * ```
 * A synthetic web labels its own pages, so its topic has no `relevant` rules.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { WebClientOptions } from 'tres-crawler';
import { ConfigError, sandboxResolveRules, serveSandbox } from 'tres-crawler';
import type { UrlFilterOptions } from 'tres-crawler/internals';
import { keywordsOf, type SyntheticWebOptions } from 'tres-crawler/internals';
import { parse as parseYaml } from 'yaml';
import {
  DocwebDb,
  defaultCacheDir,
  parseTopic,
  readHubIndex,
  servedPageLookup,
  startDocweb,
} from '../../docweb/index.js';

/** What the benchmark needs of a topic, whatever its web. */
export interface BenchTopic {
  name: string;
  /** Absolute path of the topic file. */
  file: string;
  /** The topic's keywords: the stand-in keyword judge's, and the keyword features of strategies. */
  keywords: string[];
  /** The topic's keyphrases (strategies' keyphrase features). @default none */
  keyphrases?: string[];
  /** Seed URLs; run i starts from `seeds[i mod seeds.length]` alone. */
  seeds: string[];
  /** Ground truth: true if the URL's page is relevant. */
  labelOf(url: string): boolean;
  /**
   * What the oracle knows of a link: the page it lands on (after the server's redirects) exists
   * and is relevant. A rule that labels a whole site relevant also labels its dead links; the
   * oracle must not rank a 404 first. @default labelOf
   */
  isRelevantPage?(url: string): boolean;
}

/** Where a topic's pages come from. */
export type WebSpec =
  | { kind: 'docweb' }
  | { kind: 'synthetic'; options: Partial<SyntheticWebOptions> }
  | { kind: 'synthetic-folder'; dir: string };

/** A topic with its web served on loopback. */
export interface BenchWeb {
  topic: BenchTopic;
  /** Network options that keep the crawler inside this web (other hosts fail like DNS misses). */
  net: WebClientOptions;
  /** Keeps URLs with an IP address for host out of the frontier (see {@link BENCH_URL_FILTER}). */
  urlFilter: UrlFilterOptions;
  /** One line about the web, for the report. */
  description: string;
  /** Hosts the web serves (the closed world's scope). */
  servedHosts: ReadonlySet<string>;
  /**
   * True if the web has a page at the URL, after its redirects (the closed world drops links to a
   * served host's pages the web does not have). @default undefined: every URL of a served host
   */
  hasPage?: (url: string) => boolean;
  /** URLs of the web's pages relevant by its ground truth, sorted (the simulated user's examples). */
  relevantPages(): string[];
  close(): Promise<void>;
}

/** Options of {@link openBenchWeb}. */
export interface OpenBenchWebOptions {
  /** DocWeb cache folder. @default the DocWeb default cache */
  cacheDir?: string;
}

function fail(file: string, field: string, message: string): never {
  throw new ConfigError(`topic file ${file}: ${field} ${message}`, { context: { file, field } });
}

function readYaml(file: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read topic file ${file}: ${(error as Error).message}`, {
      context: { file },
      cause: error,
    });
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    fail(file, '(top level)', 'must be a mapping with name, keywords and seeds');
  return data as Record<string, unknown>;
}

/**
 * Reads the `web` field of a topic file.
 * @throws ConfigError naming the file and field for an unknown web.
 */
export function parseWebSpec(value: unknown, file: string): WebSpec {
  if (value === undefined || value === 'docweb') return { kind: 'docweb' };
  const synthetic =
    value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>).synthetic
      : undefined;
  if (typeof synthetic === 'string')
    return { kind: 'synthetic-folder', dir: resolve(dirname(file), synthetic) };
  if (synthetic && typeof synthetic === 'object' && !Array.isArray(synthetic))
    return { kind: 'synthetic', options: synthetic as Partial<SyntheticWebOptions> };
  return fail(
    file,
    'web',
    `must be "docweb" or {synthetic: OPTIONS or FOLDER}, got ${JSON.stringify(value)}`,
  );
}

function optionalList(file: string, field: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || !v.trim()))
    fail(file, field, 'must be a non-empty list of strings');
  return (value as string[]).map((v) => v.trim());
}

/**
 * Loads the topic of `topicFile` and serves its web on 127.0.0.1 (free port).
 * @throws ConfigError naming the file and field for an invalid topic, a DocWeb that is not built,
 *   or seeds the web does not serve.
 */
export async function openBenchWeb(topicFile: string, options: OpenBenchWebOptions = {}): Promise<BenchWeb> {
  const file = resolve(topicFile);
  const { web: webField, ...rest } = readYaml(file);
  const spec = parseWebSpec(webField, file);
  if (spec.kind === 'docweb') {
    const cacheDir = options.cacheDir ?? defaultCacheDir();
    const parsed = parseTopic(rest, file, readHubIndex(cacheDir));
    const db = new DocwebDb(cacheDir);
    let lookup: (url: string) => string | undefined;
    try {
      lookup = servedPageLookup(db);
    } finally {
      db.close();
    }
    const topic: BenchTopic = {
      ...parsed,
      isRelevantPage: (url) => {
        const landing = lookup(url);
        return landing !== undefined && parsed.labelOf(landing);
      },
    };
    const server = await startDocweb({
      port: 0,
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    });
    try {
      checkSeedsServed(file, topic.seeds, server.hosts);
    } catch (error) {
      await server.close();
      throw error;
    }
    return {
      topic,
      net: docwebNet(sandboxResolveRules(server)),
      urlFilter: BENCH_URL_FILTER,
      description: `DocWeb: ${server.pageCount} pages on ${server.siteCount} sites (${server.hosts.length} hosts)`,
      // A link to a www. spelling of a served host is in the web: the server redirects it.
      servedHosts: new Set([...server.hosts, ...server.aliasHosts]),
      hasPage: (url) => lookup(url) !== undefined,
      relevantPages: () => {
        const pages = new DocwebDb(cacheDir);
        try {
          return pages
            .pages()
            .map((p) => p.url)
            .filter((url) => !/\.pdf$/i.test(url) && parsed.labelOf(url))
            .sort();
        } finally {
          pages.close();
        }
      },
      close: () => server.close(),
    };
  }
  const known = new Set(['name', 'description', 'category', 'keywords', 'keyphrases', 'seeds']);
  for (const key of Object.keys(rest))
    if (!known.has(key))
      fail(file, key, `is not a field of a synthetic-web topic (known: web, ${[...known].join(', ')})`);
  if (typeof rest.name !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/.test(rest.name))
    fail(file, 'name', `must be lowercase letters, digits, '-' or '_', got ${JSON.stringify(rest.name)}`);
  let sandbox: Awaited<ReturnType<typeof serveSandbox>>;
  try {
    sandbox = await serveSandbox({ web: spec.kind === 'synthetic' ? spec.options : spec.dir });
  } catch (error) {
    if (error instanceof ConfigError)
      throw new ConfigError(`topic file ${file}: web.synthetic: ${error.message}`, {
        context: { file, field: 'web.synthetic' },
        cause: error,
      });
    throw error;
  }
  const web = sandbox.web!;
  const seeds = optionalList(file, 'seeds', rest.seeds) ?? sandbox.seedUrls;
  const topic: BenchTopic = {
    name: rest.name,
    file,
    keywords: (optionalList(file, 'keywords', rest.keywords) ?? keywordsOf(web.options.relevantTopic)).map(
      (k) => k.toLowerCase(),
    ),
    ...(rest.keyphrases === undefined
      ? {}
      : {
          keyphrases: (optionalList(file, 'keyphrases', rest.keyphrases) ?? []).map((k) => k.toLowerCase()),
        }),
    seeds,
    labelOf: (url) => web.labelOf(url) === true,
  };
  try {
    checkSeedsServed(file, seeds, sandbox.server.hosts);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    topic,
    net: docwebNet(sandboxResolveRules(sandbox.server)),
    urlFilter: BENCH_URL_FILTER,
    description: `synthetic web (seed ${web.options.seed}): ${web.pageCount} pages on ${web.hosts.length} hosts, relevant topic "${web.options.relevantTopic}"`,
    servedHosts: new Set(sandbox.server.hosts),
    relevantPages: () =>
      [...web.labels()]
        .filter((l) => l.isRelevant)
        .map((l) => l.url)
        .sort(),
    close: () => sandbox.close(),
  };
}

/**
 * URLs whose host is an IP address (`http://127.0.0.1:8000/` in a README) are filtered out:
 * resolve rules map host names, so `*=none` does not cover them, and with loopback allowed the
 * crawler would connect to whatever listens on that port (or, for a public address, leave the
 * machine). No page of a sandbox web is addressed by IP.
 */
export const BENCH_URL_FILTER: UrlFilterOptions = {
  excludePatterns: [
    /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[0-9a-f:.]+\]|\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:[/?#]|$)/i,
  ],
};

/** Loopback only, https served as http, no politeness delay (the server is ours), robots obeyed. */
function docwebNet(resolveRules: string[]): WebClientOptions {
  return { resolveRules, isHttpsAsHttp: true, allowLoopback: true, minDelayMs: 0 };
}

function checkSeedsServed(file: string, seeds: string[], hosts: readonly string[]): void {
  const served = new Set(hosts);
  seeds.forEach((seed, i) => {
    const host = new URL(seed).hostname;
    if (!served.has(host))
      fail(
        file,
        `seeds[${i}]`,
        `'${seed}': host ${host} is not served by this web (is the DocWeb cache built?)`,
      );
  });
}
