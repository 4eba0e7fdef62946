/**
 * The options of `tres crawl` in one table: the flag as typed, its config-file key, its help
 * with the default (read from the library's default constants, never restated), how a value is
 * checked, and where it goes in the library's {@link CrawlerOptions}. The command's flags, its
 * config-file schema, its checks and the resume comparison are all made from this table, so a
 * message always names the option the way the user wrote it.
 */
import { domainToASCII } from 'node:url';
import { ConfigError } from '../common/errors.js';
import { createRng } from '../common/rng.js';
import type { OptionKind } from '../config/index.js';
import { type CrawlerOptions, DEFAULT_CRAWLER_OPTIONS } from '../crawl/crawl-options.js';
import { type DomainLimit, formatDomainLimit, parseDomainLimit } from '../crawl/domain-limit.js';
import { DEFAULT_WEB_CLIENT_OPTIONS, parseResolveRules, type WebClientOptions } from '../net/index.js';
import { createStrategy, strategyNames } from '../strategies/registry.js';
import { readListFile } from './list-file.js';

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
}

/** `--max-pages` etc.: whole numbers >= min, or `none` (false) when `allowNone`. */
function wholeNumber(min: number, allowNone = false) {
  return (raw: unknown, where: string): number | false => {
    if (allowNone && (raw === 'none' || raw === false)) return false;
    const text = String(raw).trim();
    const n = typeof raw === 'number' ? raw : /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      throw new ConfigError(
        `${where} must be a whole number >= ${min}${allowNone ? ' or none' : ''}, got ${JSON.stringify(raw)}`,
        { context: { field: where } },
      );
    }
    return n;
  };
}

function probability(raw: unknown, where: string): number {
  const text = String(raw).trim();
  const p = typeof raw === 'number' ? raw : text === '' ? Number.NaN : Number(text);
  if (!(p > 0 && p <= 1)) {
    throw new ConfigError(
      `${where} must be a probability above 0 and at most 1 (e.g. 0.5), got ${JSON.stringify(raw)}`,
      {
        context: { field: where },
      },
    );
  }
  return p;
}

function text(raw: unknown, where: string): string {
  const value = String(raw).trim();
  if (value === '') throw new ConfigError(`${where} must not be empty`, { context: { field: where } });
  return value;
}

function list(raw: unknown, where: string): string[] {
  const values = (Array.isArray(raw) ? raw : [raw]).map((v) => String(v).trim()).filter(Boolean);
  if (values.length === 0) throw new ConfigError(`${where} must not be empty`, { context: { field: where } });
  return values;
}

/** Prefixes a library ConfigError's message with the option as typed. */
function rethrowAs(where: string, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`${where}: ${error.message}`, { cause: error, context: { field: where } });
  }
}

function strategy(raw: unknown, where: string): string {
  const spec = text(raw, where);
  // Building it is the only complete check of a spec (name and overrides).
  rethrowAs(where, () => createStrategy(spec, { rng: createRng(1) }));
  return spec;
}

function domainLimit(raw: unknown, where: string): string {
  const value = text(raw, where);
  parseDomainLimit(value, where);
  return value;
}

function patterns(raw: unknown, where: string): string[] {
  return list(raw, where).map((pattern) => {
    try {
      new RegExp(pattern);
    } catch (error) {
      throw new ConfigError(
        `${where}: ${JSON.stringify(pattern)} is not a regular expression (${(error as Error).message})`,
        {
          context: { field: where },
        },
      );
    }
    return pattern;
  });
}

function domains(raw: unknown, where: string): string[] {
  return list(raw, where).map((domain) => {
    const bare = domain.replace(/^\*?\./, '');
    if (bare === '' || domainToASCII(bare) === '') {
      throw new ConfigError(`${where}: ${JSON.stringify(domain)} is not a domain or host name`, {
        context: { field: where },
      });
    }
    return domain;
  });
}

function resolveRules(raw: unknown, where: string): string[] {
  const rules = list(raw, where);
  rethrowAs(where, () => parseResolveRules(rules));
  return rules;
}

// Same test as the fetcher's (net/fetcher-options.ts), so the message can name the flag.
const CONTACT = /https?:\/\/[^\s)]+|[\w.+-]+@[\w-]+(\.[\w-]+)+/;
function userAgent(raw: unknown, where: string): string {
  const ua = text(raw, where);
  if (!CONTACT.test(ua)) {
    throw new ConfigError(
      `${where} "${ua}" has no contact URL or e-mail address; add one so site owners can reach you, e.g. "mybot/1.0 (+https://example.org/bot)"`,
      { context: { field: where } },
    );
  }
  return ua;
}

const net = (o: CrawlerOptions): WebClientOptions => {
  o.net ??= {};
  return o.net;
};
const filter = (o: CrawlerOptions) => {
  o.urlFilter ??= {};
  return o.urlFilter;
};
const d = DEFAULT_CRAWLER_OPTIONS;
const dn = DEFAULT_WEB_CLIENT_OPTIONS;

/** Every option of `tres crawl` but --seeds/--out/--resume/--config (see crawl.ts), in help order. */
export const CRAWL_FLAGS: readonly CrawlFlag[] = [
  {
    key: 'strategy',
    flags: '--strategy <spec>',
    help: `how to choose the next URL: ${strategyNames()
      .map((s) => s.name)
      .join(', ')}; the RL ones take Double DQN overrides, e.g. tres:gamma=0.5`,
    defaultText: d.strategy,
    kind: 'string',
    check: strategy,
    apply: (o, v) => {
      o.strategy = v as string;
    },
    read: (o) => o.strategy,
    isFixed: true,
  },
  {
    key: 'maxPages',
    flags: '--max-pages <n>',
    help: 'page budget: fetch attempts to make, failures included; none for no budget',
    defaultText: String(d.maxPages),
    kind: 'scalar',
    check: wholeNumber(1, true),
    apply: (o, v) => {
      o.maxPages = v as number | false;
    },
    read: (o) => o.maxPages ?? d.maxPages,
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
    apply: (o, v) => {
      o.maxPagesPerDomain = v as string;
    },
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
    apply: (o, v) => {
      o.maxConcurrency = v as number;
    },
    read: (o) => o.maxConcurrency ?? d.maxConcurrency,
  },
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
    check: (raw, where) => readListFile(text(raw, where), `${where} file`),
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
    apply: (o, v) => {
      o.keyphrases = v as string[];
    },
    read: (o) => o.keyphrases ?? [],
    isFixed: true,
  },
  {
    key: 'model',
    flags: '--model <dir>',
    help: 'relevance model trained with `tres train`',
    defaultText: 'a keyword judge on --keywords',
    kind: 'string',
    check: text,
    apply: (o, v) => {
      o.judgeSource = v as string;
    },
    read: (o) => o.judgeSource,
    isFixed: true,
  },
  {
    key: 'threshold',
    flags: '--threshold <p>',
    help: 'a page is relevant when P(relevant) >= p',
    defaultText: String(d.relevanceThreshold),
    kind: 'scalar',
    check: probability,
    apply: (o, v) => {
      o.relevanceThreshold = v as number;
    },
    read: (o) => o.relevanceThreshold ?? d.relevanceThreshold,
  },
  {
    key: 'seed',
    flags: '--seed <value>',
    help: 'run seed: the same seed repeats the same choices',
    defaultText: String(d.seed),
    kind: 'string',
    check: text,
    apply: (o, v) => {
      o.seed = v as string;
    },
    read: (o) => String(o.seed ?? d.seed),
  },
  {
    key: 'siteMode',
    flags: '--site-mode <mode>',
    help: 'what counts as one web site for --domain-limit and relevant sites',
    defaultText: d.siteMode,
    kind: 'string',
    choices: ['domain', 'host'],
    check: text,
    apply: (o, v) => {
      o.siteMode = v as 'domain' | 'host';
    },
    read: (o) => o.siteMode ?? d.siteMode,
    isFixed: true,
  },
  {
    key: 'maxDepth',
    flags: '--max-depth <n>',
    help: 'follow links at most n hops from a seed (seeds are depth 0); none for no limit',
    defaultText: d.maxDepth === false ? 'none' : String(d.maxDepth),
    kind: 'scalar',
    check: wholeNumber(0, true),
    apply: (o, v) => {
      o.maxDepth = v as number | false;
    },
    read: (o) => o.maxDepth ?? d.maxDepth,
  },
  {
    key: 'include',
    flags: '--include <regex>',
    help: 'crawl only URLs matching one of these regular expressions (JavaScript syntax, tested on the whole URL; repeatable)',
    defaultText: 'every URL',
    kind: 'string[]',
    isPattern: true,
    check: patterns,
    apply: (o, v) => {
      filter(o).includePatterns = v as string[];
    },
    read: (o) => o.urlFilter?.includePatterns ?? [],
  },
  {
    key: 'exclude',
    flags: '--exclude <regex>',
    help: 'never crawl URLs matching any of these regular expressions (repeatable), e.g. "[?&]sort="',
    defaultText: 'none',
    kind: 'string[]',
    isPattern: true,
    check: patterns,
    apply: (o, v) => {
      filter(o).excludePatterns = v as string[];
    },
    read: (o) => o.urlFilter?.excludePatterns ?? [],
  },
  {
    key: 'allowedDomains',
    flags: '--allowed-domains <list>',
    help: 'crawl only these domains or hosts and their subdomains, comma separated',
    defaultText: 'any',
    kind: 'string[]',
    isList: true,
    check: domains,
    apply: (o, v) => {
      filter(o).allowedDomains = v as string[];
    },
    read: (o) => o.urlFilter?.allowedDomains || [],
  },
  {
    key: 'minDelayMs',
    flags: '--min-delay-ms <ms>',
    help: 'least pause between two requests to one host (robots.txt Crawl-delay may ask for more)',
    defaultText: String(dn.minDelayMs),
    kind: 'number',
    check: wholeNumber(0),
    apply: (o, v) => {
      net(o).minDelayMs = v as number;
    },
    read: (o) => o.net?.minDelayMs ?? dn.minDelayMs,
  },
  {
    key: 'userAgent',
    flags: '--user-agent <ua>',
    help: 'User-Agent header; must hold a contact URL or e-mail address',
    defaultText: `"${dn.userAgent}"`,
    kind: 'string',
    check: userAgent,
    apply: (o, v) => {
      net(o).userAgent = v as string;
    },
    read: (o) => o.net?.userAgent ?? dn.userAgent,
  },
  {
    key: 'resolve',
    flags: '--resolve <rules>',
    help: 'send HOST (or *) to ADDR:PORT like curl, e.g. "*=127.0.0.1:8080"; ADDR none fails as a DNS miss (repeatable)',
    defaultText: 'DNS',
    kind: 'string[]',
    isList: true,
    check: resolveRules,
    apply: (o, v) => {
      net(o).resolveRules = v as string[];
    },
    read: (o) => o.net?.resolveRules ?? [],
  },
  {
    key: 'httpsAsHttp',
    flags: '--https-as-http',
    help: 'fetch https:// URLs of resolved hosts over plain http (sandbox webs)',
    defaultText: 'off',
    kind: 'boolean',
    apply: (o, v) => {
      net(o).isHttpsAsHttp = v as boolean;
    },
    read: (o) => o.net?.isHttpsAsHttp ?? dn.isHttpsAsHttp,
  },
  {
    key: 'allowLoopback',
    flags: '--allow-loopback',
    help: 'allow fetching from 127.0.0.0/8 and ::1, e.g. a server on this machine',
    defaultText: 'refused',
    kind: 'boolean',
    apply: (o, v) => {
      net(o).allowLoopback = v as boolean;
    },
    read: (o) => o.net?.allowLoopback ?? dn.allowLoopback,
  },
  {
    key: 'robots',
    flags: '--no-robots',
    help: 'ignore robots.txt (only for your own sites)',
    defaultText: 'robots.txt obeyed',
    kind: 'boolean',
    apply: (o, v) => {
      net(o).respectRobotsTxt = v as boolean;
    },
    read: (o) => o.net?.respectRobotsTxt ?? dn.respectRobotsTxt,
  },
  {
    key: 'warc',
    flags: '--no-warc',
    help: 'do not write WARC records (then `tres export --with-text` has no text to give)',
    defaultText: 'written',
    kind: 'boolean',
    apply: (o, v) => {
      o.shouldWriteWarc = v as boolean;
    },
    read: (o) => o.shouldWriteWarc ?? d.shouldWriteWarc,
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
