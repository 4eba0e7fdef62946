/**
 * The options of `tres crawl` in one table: the flag as typed, its config-file key, its help
 * with the default (read from the library's default constants, never restated), how a value is
 * checked, and where it goes in the library's {@link CrawlerOptions}. The command's flags, its
 * config-file schema, its checks and the resume comparison are all made from this table, so a
 * message always names the option the way the user wrote it.
 */
import type { OptionKind } from '../config/index.js';
import {
  DEFAULT_CRAWLER_OPTIONS,
  DEFAULT_SITEMAP_OPTIONS,
  type DomainLimit,
  formatDomainLimit,
} from '../crawl/index.js';
import type { CrawlerOptions } from '../index.js';
import { DEFAULT_WEB_CLIENT_OPTIONS, type WebClientOptions } from '../net/index.js';
import { DEFAULT_STRATEGY, strategyNames } from '../strategies/index.js';
import { DEFAULT_DASHBOARD_OPTIONS } from '../ui/index.js';
import type { UrlFilterOptions } from '../url/index.js';
import {
  domainLimit,
  domains,
  folder,
  list,
  patterns,
  portNumber,
  probability,
  resolveRules,
  strategy,
  text,
  userAgent,
  wholeNumber,
  wordsFile,
} from './crawl-checks.js';

/** One option of `tres crawl`. */
export interface CrawlFlag {
  /** camelCase name: commander's attribute and the config-file key. */
  key: string;
  /** Commander's flag text, e.g. `--max-pages <n>`. */
  flags: string;
  /** Help line, without the default. */
  help: string;
  /** The default as shown in --help. */
  defaultText?: string;
  /** Type of the value in a config file; undefined: not allowed in a config file. */
  kind?: OptionKind;
  /** Values that may be given; checked for flags and config files alike. */
  choices?: readonly string[];
  /** Repeatable flag; each value is split on commas unless `isPattern`. */
  isList?: boolean;
  /** Repeatable, but never split on commas (regular expressions may hold commas). */
  isPattern?: boolean;
  /**
   * Checks a value (a string from the command line, a typed value from a config file) and
   * converts it. `where` names the option as the user wrote it (`--max-pages` or
   * `maxPages in crawl.yaml`). @throws ConfigError naming `where`.
   */
  check?: (raw: unknown, where: string) => unknown;
  /** Writes a checked value into crawler options. */
  apply?: (o: CrawlerOptions, value: unknown) => void;
  /** The value in stored crawler options, in the form `check` returns; for resume warnings. */
  read?: (o: CrawlerOptions) => unknown;
  /** The stored records depend on it: a resume may not change it. */
  isFixed?: boolean;
  /** Belongs to this run only (the dashboard): never stored, so a resume compares nothing. */
  isRunOnly?: boolean;
}

type Access = Pick<CrawlFlag, 'apply' | 'read'>;
const d = DEFAULT_CRAWLER_OPTIONS;
const dn = DEFAULT_WEB_CLIENT_OPTIONS;

/** A top-level crawler option; `fallback` is its default, for the resume comparison. */
function top(key: keyof CrawlerOptions, fallback?: unknown): Access {
  return {
    apply: (o, v) => {
      (o as unknown as Record<string, unknown>)[key] = v;
    },
    read: (o) => o[key] ?? fallback,
  };
}

/** A network option (`CrawlerOptions.net`). */
function inNet(key: keyof WebClientOptions): Access {
  return {
    apply: (o, v) => {
      o.net = { ...o.net, [key]: v };
    },
    read: (o) => o.net?.[key] ?? (dn as Record<string, unknown>)[key],
  };
}

/** A URL filter option (`CrawlerOptions.urlFilter`); unset lists read as empty. */
function inFilter(key: keyof UrlFilterOptions): Access {
  return {
    apply: (o, v) => {
      o.urlFilter = { ...o.urlFilter, [key]: v };
    },
    read: (o) => o.urlFilter?.[key] || [],
  };
}

/** Every option of `tres crawl` but --seeds/--out/--resume/--config/--quiet (see crawl.ts), in help order. */
export const CRAWL_FLAGS: readonly CrawlFlag[] = [
  {
    key: 'strategy',
    flags: '--strategy <spec>',
    help: `how to choose the next URL: ${strategyNames()
      .map((s) => s.name)
      .join(
        ', ',
      )}; settings as NAME:key=value,... (e.g. tres:gamma=0.5,warmupPolicy=random; each strategy's settings are listed below)`,
    defaultText: DEFAULT_STRATEGY,
    kind: 'string',
    check: strategy,
    ...top('strategy', DEFAULT_STRATEGY),
    isFixed: true,
  },
  {
    key: 'maxPages',
    flags: '--max-pages <n>',
    help: 'page budget: fetch attempts to make, failures included; none for no budget',
    defaultText: String(d.maxPages),
    kind: 'scalar',
    check: wholeNumber(1, true),
    ...top('maxPages', d.maxPages),
  },
  {
    key: 'timeLimit',
    flags: '--time-limit <seconds>',
    help: 'stop after this many seconds; none for no limit',
    defaultText: d.timeLimitMs === false ? 'none' : String(d.timeLimitMs / 1000),
    kind: 'scalar',
    check: wholeNumber(1, true),
    apply: (o, v) => {
      o.timeLimitMs = v === false ? false : (v as number) * 1000;
    },
    read: (o) => {
      const ms = o.timeLimitMs ?? d.timeLimitMs;
      return ms === false ? false : ms / 1000;
    },
  },
  {
    key: 'domainLimit',
    flags: '--domain-limit <b>',
    help: 'pages per web site: none, a number, or START_FLOOR to halve at T/3 and 2T/3 (e.g. 5_2)',
    defaultText: d.maxPagesPerDomain,
    kind: 'scalar',
    check: domainLimit,
    apply: top('maxPagesPerDomain').apply,
    read: (o) => {
      const limit = o.maxPagesPerDomain ?? d.maxPagesPerDomain;
      return typeof limit === 'object' ? formatDomainLimit(limit as DomainLimit) : String(limit);
    },
  },
  {
    key: 'concurrency',
    flags: '--concurrency <k>',
    help: 'fetches in flight K; 1 is the papers\u2019 sequential MDP',
    defaultText: String(d.maxConcurrency),
    kind: 'number',
    check: wholeNumber(1),
    ...top('maxConcurrency', d.maxConcurrency),
  },
  // --keywords and --keywords-file make one list (crawl-plan.ts), hence no apply/read here.
  {
    key: 'keywords',
    flags: '--keywords <words>',
    help: 'topic keywords, comma separated (the relevance judge unless --model is given)',
    defaultText: 'none; give these, --keywords-file or --model',
    kind: 'string[]',
    isList: true,
    check: list,
    isFixed: true,
  },
  {
    key: 'keywordsFile',
    flags: '--keywords-file <file>',
    help: 'topic keywords, one per line (# starts a comment); added to --keywords',
    defaultText: 'none',
    kind: 'string',
    check: wordsFile,
    isFixed: true,
  },
  {
    key: 'keyphrases',
    flags: '--keyphrases <phrases>',
    help: 'topic keyphrases, comma separated (never expanded)',
    defaultText: 'none',
    kind: 'string[]',
    isList: true,
    check: list,
    ...top('keyphrases', []),
    isFixed: true,
  },
  {
    key: 'model',
    flags: '--model <dir>',
    help: 'relevance model trained with `tres train`',
    defaultText: 'a keyword judge on --keywords',
    kind: 'string',
    check: folder,
    ...top('judgeSource'),
    isFixed: true,
  },
  {
    key: 'examples',
    flags: '--examples <file-or-dir>',
    help: 'example relevant pages: a folder of .html, .htm or .txt files, or a file of URLs (one a line, fetched before the crawl); the judge learns the topic from them, the --keywords and the pages it meets (not with --model)',
    defaultText: 'none',
    kind: 'string',
    check: folder,
    ...top('examplesSource'),
    isFixed: true,
  },
  {
    key: 'threshold',
    flags: '--threshold <p>',
    help: 'a page is relevant when P(relevant) >= p',
    defaultText: String(d.relevanceThreshold),
    kind: 'scalar',
    check: probability,
    ...top('relevanceThreshold', d.relevanceThreshold),
  },
  {
    key: 'seed',
    flags: '--seed <value>',
    help: 'run seed: the same seed repeats the same choices',
    defaultText: String(d.seed),
    kind: 'string',
    check: text,
    apply: top('seed').apply,
    read: (o) => String(o.seed ?? d.seed),
  },
  {
    key: 'siteMode',
    flags: '--site-mode <mode>',
    help: 'what counts as one web site for --domain-limit and relevant sites: domain (registrable domain) or host (host without www.)',
    defaultText: d.siteMode,
    kind: 'string',
    choices: ['domain', 'host'],
    check: text,
    ...top('siteMode', d.siteMode),
    isFixed: true,
  },
  {
    key: 'maxDepth',
    flags: '--max-depth <n>',
    help: 'follow links at most n hops from a seed (seeds are depth 0); none for no limit',
    defaultText: d.maxDepth === false ? 'none' : String(d.maxDepth),
    kind: 'scalar',
    check: wholeNumber(0, true),
    ...top('maxDepth', d.maxDepth),
  },
  {
    key: 'maxTextChars',
    flags: '--max-text-chars <n>',
    help: "read at most n characters of a page's text (a longer page is marked text-capped); none to read all",
    defaultText: d.maxTextChars === false ? 'none' : String(d.maxTextChars),
    kind: 'scalar',
    check: wholeNumber(0, true),
    ...top('maxTextChars', d.maxTextChars),
  },
  {
    key: 'maxLinksPerPage',
    flags: '--max-links-per-page <n>',
    help: 'read at most n links of a page (a page with more is marked links-capped); none to read all',
    defaultText: d.maxLinksPerPage === false ? 'none' : String(d.maxLinksPerPage),
    kind: 'scalar',
    check: wholeNumber(0, true),
    ...top('maxLinksPerPage', d.maxLinksPerPage),
  },
  {
    key: 'maxFrontierUrls',
    flags: '--max-frontier-urls <n>',
    help: 'queued URLs kept in memory at most; past it, the links of new pages wait on disk in the crawl store until the frontier has room (none: no bound)',
    defaultText: d.maxFrontierUrls === false ? 'none' : String(d.maxFrontierUrls),
    kind: 'scalar',
    check: wholeNumber(1, true),
    ...top('maxFrontierUrls', d.maxFrontierUrls),
  },
  {
    key: 'checkpointEvery',
    flags: '--checkpoint-every <n>',
    help: 'store what the strategy has learned every n pages (and when the crawl stops), so --resume goes on from it; none: a resume learns again from the start',
    defaultText: d.checkpointEveryPages === false ? 'none' : String(d.checkpointEveryPages),
    kind: 'scalar',
    check: wholeNumber(1, true),
    ...top('checkpointEveryPages', d.checkpointEveryPages),
  },
  {
    key: 'frontierSnapshotPages',
    flags: '--frontier-snapshot-pages <n>',
    help: 'store everything the strategy holds, its frontier included, once n pages and a tenth of the crawl have passed since the last time (and when the crawl stops), so --resume replays only the pages after it; none: a resume replays every page',
    defaultText: d.frontierSnapshotPages === false ? 'none' : String(d.frontierSnapshotPages),
    kind: 'scalar',
    check: wholeNumber(1, true),
    ...top('frontierSnapshotPages', d.frontierSnapshotPages),
  },
  {
    key: 'include',
    flags: '--include <regex>',
    help: 'crawl only URLs matching one of these regular expressions (JavaScript syntax, tested on the whole URL; repeatable)',
    defaultText: 'every URL',
    kind: 'string[]',
    isPattern: true,
    check: patterns,
    ...inFilter('includePatterns'),
  },
  {
    key: 'exclude',
    flags: '--exclude <regex>',
    help: 'never crawl URLs matching any of these regular expressions (repeatable), e.g. "[?&]sort="',
    defaultText: 'none',
    kind: 'string[]',
    isPattern: true,
    check: patterns,
    ...inFilter('excludePatterns'),
  },
  {
    key: 'allowedDomains',
    flags: '--allowed-domains <list>',
    help: 'crawl only these domains or hosts and their subdomains, comma separated',
    defaultText: 'any',
    kind: 'string[]',
    isList: true,
    check: domains,
    ...inFilter('allowedDomains'),
  },
  {
    key: 'minDelayMs',
    flags: '--min-delay-ms <ms>',
    help: 'least pause between two requests to one host (robots.txt Crawl-delay may ask for more)',
    defaultText: String(dn.minDelayMs),
    kind: 'number',
    check: wholeNumber(0),
    ...inNet('minDelayMs'),
  },
  {
    key: 'maxSockets',
    flags: '--max-sockets <n>',
    help: 'open connections at most over every host; idle ones are closed first (keep well below ulimit -n)',
    defaultText: String(dn.maxSockets),
    kind: 'number',
    check: wholeNumber(1),
    ...inNet('maxSockets'),
  },
  {
    key: 'userAgent',
    flags: '--user-agent <ua>',
    help: 'User-Agent header; must hold a contact URL or e-mail address',
    defaultText: `"${dn.userAgent}"`,
    kind: 'string',
    check: userAgent,
    ...inNet('userAgent'),
  },
  {
    key: 'resolve',
    flags: '--resolve <rules>',
    help: 'send HOST (or *) to ADDR:PORT like curl, e.g. "*=127.0.0.1:8080"; ADDR none fails as a DNS miss (repeatable)',
    defaultText: 'DNS',
    kind: 'string[]',
    isList: true,
    check: resolveRules,
    ...inNet('resolveRules'),
  },
  {
    key: 'httpsAsHttp',
    flags: '--https-as-http',
    help: 'fetch https:// URLs of resolved hosts over plain http (sandbox webs)',
    defaultText: 'off',
    kind: 'boolean',
    ...inNet('isHttpsAsHttp'),
  },
  {
    key: 'allowLoopback',
    flags: '--allow-loopback',
    help: 'allow fetching from 127.0.0.0/8 and ::1, e.g. a server on this machine',
    defaultText: 'refused',
    kind: 'boolean',
    ...inNet('allowLoopback'),
  },
  {
    key: 'robots',
    flags: '--no-robots',
    help: 'ignore robots.txt (only for your own sites)',
    defaultText: 'robots.txt obeyed',
    kind: 'boolean',
    ...inNet('respectRobotsTxt'),
  },
  {
    key: 'warc',
    flags: '--no-warc',
    help: 'do not write WARC records (then `tres export --with-text` has no text to give)',
    defaultText: 'written',
    kind: 'boolean',
    ...top('shouldWriteWarc', d.shouldWriteWarc),
  },
  {
    key: 'sitemaps',
    flags: '--sitemaps',
    help: `also crawl the URLs listed in the seed sites' sitemaps (robots.txt Sitemap: lines, else /sitemap.xml; index files and gzip followed, fetched politely, at most ${DEFAULT_SITEMAP_OPTIONS.maxSitemaps} sitemaps and ${DEFAULT_SITEMAP_OPTIONS.maxUrls} URLs)`,
    defaultText: 'off',
    kind: 'boolean',
    apply: (o, v) => {
      o.sitemaps = v === true ? {} : false;
    },
    read: (o) => o.sitemaps !== undefined && o.sitemaps !== false,
  },
  {
    key: 'render',
    flags: '--render [hosts]',
    help: "run each page's JavaScript in chromium (Debian's, through playwright-core) before reading its links: every host, or only these hosts, comma separated; the browser's requests obey the same politeness, robots.txt and address guard",
    defaultText: 'off',
    kind: 'string',
    check: (raw, where) =>
      raw === true || raw === 'all' ? 'all' : list(String(raw).split(','), where).map((h) => h.toLowerCase()),
    apply: (o, v) => {
      o.render = { hosts: v as string[] | 'all' };
    },
    read: (o) => (o.render ? (o.render.hosts ?? 'all') : false),
  },
  // The dashboard (src/ui) is part of this run, not of the crawl's options: no apply, no
  // config-file key, and a resume may turn it on or off freely.
  {
    key: 'ui',
    flags: '--ui',
    help: 'serve the live dashboard (charts, pages, labels, pause/stop, REST API, /metrics) while crawling',
    defaultText: 'off',
    isRunOnly: true,
  },
  {
    key: 'uiPort',
    flags: '--ui-port <n>',
    help: 'TCP port of the dashboard, 0 to 65535 (0: any free port); implies --ui',
    defaultText: String(DEFAULT_DASHBOARD_OPTIONS.port),
    check: portNumber,
    isRunOnly: true,
  },
  {
    key: 'uiHost',
    flags: '--ui-host <address>',
    help: 'address the dashboard binds; anything but loopback requires the token it prints; implies --ui',
    defaultText: DEFAULT_DASHBOARD_OPTIONS.host,
    check: text,
    isRunOnly: true,
  },
  {
    key: 'maxQuestions',
    flags: '--max-questions <n>',
    help: 'with --ui: most questions the crawl asks in the dashboard (over all runs; answers retrain the judge); none: asks none',
    defaultText: d.maxQuestions === false ? 'none' : String(d.maxQuestions),
    kind: 'scalar',
    check: wholeNumber(1, true),
    ...top('maxQuestions', d.maxQuestions),
  },
  // Scale-out (src/cluster, docs/scale-out.md): this process becomes the coordinator and
  // `tres worker` processes fetch. Part of the run, like the dashboard: give it again on resume
  // (on the command line or in the --config file; a config file's `cluster` is a URL).
  {
    key: 'cluster',
    flags: '--cluster [redis-url]',
    help: 'coordinate a cluster: fetches go to `tres worker` processes over Redis Streams (redis://[user@]host:port[/db] or rediss://; alone: the URL in TRES_REDIS_URL, password included; never a password here, ps shows it)',
    defaultText: 'off: fetch in this process',
    kind: 'string',
    check: (raw, where) => (raw === true ? true : text(raw, where)),
    isRunOnly: true,
  },
  {
    key: 'clusterPasswordFile',
    flags: '--cluster-password-file <file>',
    help: "file whose first line is the Redis password of --cluster's URL",
    defaultText: "none: the URL's password, if any",
    kind: 'string',
    check: text,
    isRunOnly: true,
  },
  {
    key: 'clusterName',
    flags: '--cluster-name <name>',
    help: 'name of the crawl in Redis (workers give the same), so one Redis serves several crawls',
    defaultText: 'crawl',
    kind: 'string',
    check: text,
    isRunOnly: true,
  },
  {
    key: 'clusterShards',
    flags: '--cluster-shards <n>',
    help: 'shards hosts are hashed into (one worker owns each); keep it when resuming',
    defaultText: '64',
    kind: 'scalar',
    check: wholeNumber(1),
    isRunOnly: true,
  },
];

/** The config-file schema of `tres crawl`: every key of the table with a kind, plus `seeds`. */
export function crawlConfigSchema(): Record<string, OptionKind> {
  const schema: Record<string, OptionKind> = { seeds: 'string' };
  for (const flag of CRAWL_FLAGS) if (flag.kind) schema[flag.key] = flag.kind;
  return schema;
}

/** Name of a flag as typed: `--max-pages`, `--no-robots`. */
export function flagName(flag: CrawlFlag): string {
  return flag.flags.split(' ')[0]!;
}
