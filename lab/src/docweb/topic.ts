/**
 * Topics as data: a YAML file per topic holds its name, the initial keywords and keyphrases (the
 * TRES papers take them from Open Directory category names), the ground-truth rules (whole sites
 * or path subtrees of the DocWeb) and the seed URLs. Adding a topic is adding a file.
 *
 * ```yaml
 * name: hardware
 * category: Computers/Hardware        # Open Directory category the keywords come from
 * keywords: [hardware, computer]
 * keyphrases: [computer hardware]
 * relevant:                            # a page is relevant if any rule matches
 *   - { host: www.lirc.org }           # whole site (prefix defaults to /)
 *   - { host: docs.kernel.org, prefix: /hwmon/ }
 *   - { host: pandas.pydata.org, prefix: /docs/reference/api/, pattern: '\.(corr|cov)\.html$' }
 * except:                              # optional: subtrees of relevant rules that are not
 *   - { host: docs.kernel.org, prefix: /hwmon/index.html }
 * seeds: [https://www.lirc.org/html/index.html]
 * ```
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ConfigError } from 'tres-crawler';
import { parse as parseYaml } from 'yaml';
import { homepageKeyOf } from './homepages.js';

/** One ground-truth rule: every URL on `host` whose path starts with `prefix` (and matches `pattern`). */
export interface TopicRule {
  /** Hostname, lowercased, without port. */
  host: string;
  /**
   * Start of the URL path, case-sensitive, as a plain string prefix (end it with '/' for a
   * folder: `/usb` would also match `/usbip.html`). @default '/'
   */
  prefix: string;
  /**
   * Optional regular expression the whole URL path (percent-encoded, as in the URL) must also
   * match, for pages picked by name inside a big folder. @default undefined (prefix only)
   */
  pattern?: RegExp;
  /**
   * Directory hub only: package pages (`/<suite>/<package>` on packages.debian.org) of packages in
   * these Debian sections ... The same rule also selects those packages' project home pages
   * (homepages.ts), whatever their host. @default undefined (no selection by section)
   */
  sections?: string[];
  /**
   * ... or carrying one of these debtags (`devel::compiler`; a trailing `*` matches a prefix,
   * `devel::lang:*`). @default undefined (no selection by tag)
   */
  tags?: string[];
}

/** What rules by section or debtags are resolved against (see hub-site.ts, homepages.ts). */
export interface HubIndex {
  /** Section and debtags of each package with a page in the directory hub. */
  packages: ReadonlyMap<string, { section: string; tags: readonly string[] }>;
  /**
   * Project home pages (`homepageKey` of the URL) -> the packages whose home page it is. A home
   * page is relevant when a rule by section or debtags selects one of its packages.
   */
  homepages: ReadonlyMap<string, readonly string[]>;
}

/** A loaded and checked topic. */
export interface Topic {
  /** Short name used as the label, e.g. `hardware` (lowercase letters, digits, '-', '_'). */
  name: string;
  /** The file it came from (absolute). */
  file: string;
  /** Open Directory category the keywords come from, e.g. `Computers/Hardware`; '' if not given. */
  category: string;
  /** Initial keywords (single words, lowercased). */
  keywords: string[];
  /** Initial keyphrases (several words, lowercased). */
  keyphrases: string[];
  /** A URL is relevant when one of these matches ... */
  relevant: TopicRule[];
  /** ... and none of these does. */
  except: TopicRule[];
  /** Seed URLs (relevant by the rules; checked not to link to each other by `checkSeeds`). */
  seeds: string[];
  /** Ground-truth label of an absolute URL: true if relevant. Never throws (false for junk). */
  labelOf(url: string): boolean;
  /** The hub index the rules with `sections`/`tags` were resolved against, if one was given. */
  hubIndex?: HubIndex;
}

const NAME_RE = /^[a-z0-9][a-z0-9_-]*$/;

function fail(file: string, field: string, message: string): never {
  throw new ConfigError(`topic file ${file}: ${field} ${message}`, { context: { file, field } });
}

function stringList(file: string, field: string, value: unknown, isRequired: boolean): string[] {
  if (value === undefined || value === null) {
    if (isRequired) fail(file, field, 'is missing: give a list of strings');
    return [];
  }
  if (!Array.isArray(value)) fail(file, field, 'must be a list of strings');
  const out = value.map((v, i) => {
    if (typeof v !== 'string' || v.trim() === '') fail(file, `${field}[${i}]`, 'must be a non-empty string');
    return v.trim();
  });
  if (isRequired && out.length === 0) fail(file, field, 'must not be empty');
  return out;
}

function rules(file: string, field: string, value: unknown, isRequired: boolean): TopicRule[] {
  if (value === undefined || value === null) {
    if (isRequired) fail(file, field, 'is missing: give a list of {host, prefix}');
    return [];
  }
  if (!Array.isArray(value) || (isRequired && value.length === 0))
    fail(file, field, 'must be a non-empty list of {host, prefix}');
  return value.map((raw, i) => {
    const where = `${field}[${i}]`;
    if (!raw || typeof raw !== 'object') fail(file, where, 'must be {host, prefix}');
    const r = raw as Record<string, unknown>;
    const host = typeof r.host === 'string' ? r.host.trim().toLowerCase() : '';
    if (!/^[a-z0-9.-]+$/.test(host))
      fail(file, `${where}.host`, `must be a bare hostname, got ${JSON.stringify(r.host)}`);
    const prefix = r.prefix === undefined ? '/' : r.prefix;
    if (typeof prefix !== 'string' || !prefix.startsWith('/'))
      fail(file, `${where}.prefix`, `must be a URL path starting with '/', got ${JSON.stringify(r.prefix)}`);
    const rule: TopicRule = { host, prefix };
    if (r.pattern !== undefined) {
      if (typeof r.pattern !== 'string')
        fail(file, `${where}.pattern`, 'must be a regular expression string');
      try {
        rule.pattern = new RegExp(r.pattern);
      } catch (error) {
        fail(file, `${where}.pattern`, `is not a valid regular expression: ${(error as Error).message}`);
      }
    }
    for (const key of ['sections', 'tags'] as const) {
      if (r[key] === undefined) continue;
      rule[key] = stringList(file, `${where}.${key}`, r[key], true);
    }
    for (const key of Object.keys(r))
      if (!['host', 'prefix', 'pattern', 'sections', 'tags'].includes(key))
        fail(file, `${where}.${key}`, 'is not a rule field (known: host, prefix, pattern, sections, tags)');
    return rule;
  });
}

function splitUrl(url: string): { host: string; path: string } | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return { host: u.hostname.replace(/\.$/, ''), path: u.pathname };
  } catch {
    return undefined;
  }
}

/**
 * A labelling function for these rules: relevant if a `relevant` rule matches and no `except`
 * rule does. Scheme and port are ignored (https and http name the same page here).
 */
export function makeLabeler(
  relevant: readonly TopicRule[],
  except: readonly TopicRule[] = [],
  hubIndex?: HubIndex,
) {
  const matches = (list: readonly TopicRule[], host: string, path: string) =>
    list.some(
      (rule) =>
        rule.host === host &&
        path.startsWith(rule.prefix) &&
        (!rule.pattern || rule.pattern.test(path)) &&
        (!(rule.sections || rule.tags) || isHubMatch(rule, path, hubIndex)),
    );
  const byPackage = (list: readonly TopicRule[]) => list.filter((r) => r.sections || r.tags);
  const relevantByPackage = byPackage(relevant);
  const exceptByPackage = byPackage(except);
  const homepages = hubIndex?.homepages;
  return (url: string): boolean => {
    const parts = splitUrl(url);
    if (!parts) return false;
    let isSelected = false;
    let isExcepted = false;
    // A project home page is selected by a rule on its host, as any page, or by a rule by
    // section or debtags that selects one of its packages.
    if (homepages && (relevantByPackage.length > 0 || exceptByPackage.length > 0)) {
      const names = homepages.get(homepageKeyOf(parts.host, parts.path));
      if (names) {
        const selects = (list: readonly TopicRule[]) =>
          names.some((name) => list.some((rule) => isPackageMatch(rule, hubIndex?.packages.get(name))));
        isSelected = selects(relevantByPackage);
        isExcepted = selects(exceptByPackage);
      }
    }
    isSelected ||= matches(relevant, parts.host, parts.path);
    isExcepted ||= matches(except, parts.host, parts.path);
    return isSelected && !isExcepted;
  };
}

/** True if `path` is a hub package page whose section or debtags the rule selects. */
function isHubMatch(rule: TopicRule, path: string, hubIndex: HubIndex | undefined): boolean {
  const m = /^\/[^/]+\/([^/]+)$/.exec(path);
  if (!m || !hubIndex) return false;
  let name = m[1] as string;
  try {
    name = decodeURIComponent(name);
  } catch {
    return false;
  }
  return isPackageMatch(rule, hubIndex.packages.get(name));
}

/** True if the rule selects a package of this section and debtags. */
function isPackageMatch(
  rule: TopicRule,
  info: { section: string; tags: readonly string[] } | undefined,
): boolean {
  if (!info) return false;
  if (rule.sections?.includes(info.section)) return true;
  return (
    rule.tags?.some((t) =>
      t.endsWith('*') ? info.tags.some((x) => x.startsWith(t.slice(0, -1))) : info.tags.includes(t),
    ) ?? false
  );
}

/**
 * Checks parsed YAML as a topic; `file` is only used in messages.
 * @throws ConfigError naming the file and the field (`seeds[2]`, `relevant[0].host`) and the fix.
 */
export function parseTopic(data: unknown, file: string, hubIndex?: HubIndex): Topic {
  if (!data || typeof data !== 'object' || Array.isArray(data))
    fail(file, '(top level)', 'must be a mapping with name, keywords, relevant and seeds');
  const d = data as Record<string, unknown>;
  const name = d.name;
  if (typeof name !== 'string' || !NAME_RE.test(name))
    fail(file, 'name', `must be lowercase letters, digits, '-' or '_', got ${JSON.stringify(name)}`);
  if (d.category !== undefined && typeof d.category !== 'string') fail(file, 'category', 'must be a string');
  const keywords = stringList(file, 'keywords', d.keywords, true).map((k) => k.toLowerCase());
  const keyphrases = stringList(file, 'keyphrases', d.keyphrases, false).map((k) => k.toLowerCase());
  const relevant = rules(file, 'relevant', d.relevant, true);
  const except = rules(file, 'except', d.except, false);
  const labelOf = makeLabeler(relevant, except, hubIndex);
  const seeds = stringList(file, 'seeds', d.seeds, true);
  seeds.forEach((seed, i) => {
    if (!splitUrl(seed)) fail(file, `seeds[${i}]`, `must be an absolute http(s) URL, got '${seed}'`);
    if (!labelOf(seed)) fail(file, `seeds[${i}]`, `'${seed}' is not relevant by the topic's own rules`);
  });
  if (new Set(seeds).size !== seeds.length) fail(file, 'seeds', 'lists a URL twice');
  const known = new Set([
    'name',
    'description',
    'category',
    'keywords',
    'keyphrases',
    'relevant',
    'except',
    'seeds',
  ]);
  for (const key of Object.keys(d))
    if (!known.has(key)) fail(file, key, `is not a topic field (known: ${[...known].join(', ')})`);
  return {
    name,
    file,
    category: typeof d.category === 'string' ? d.category : '',
    keywords,
    keyphrases,
    relevant,
    except,
    seeds,
    labelOf,
    ...(hubIndex ? { hubIndex } : {}),
  };
}

/**
 * Reads and checks a topic file (YAML).
 * @throws ConfigError if the file cannot be read or parsed, or a field is invalid.
 */
export function loadTopic(path: string, hubIndex?: HubIndex): Topic {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read topic file ${file}: ${(error as Error).message}`, {
      context: { file },
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`topic file ${file} is not valid YAML: ${(error as Error).message}`, {
      context: { file },
      cause: error,
    });
  }
  return parseTopic(data, file, hubIndex);
}

/**
 * Every topic file (`*.yaml`, `*.yml`) of a folder, sorted by name; [] if the folder is missing.
 * @throws ConfigError for an invalid file or two files with the same topic name.
 */
export function loadTopics(dir: string, hubIndex?: HubIndex): Topic[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /\.ya?ml$/.test(n));
  } catch {
    return [];
  }
  const topics = names.sort().map((n) => loadTopic(join(dir, n), hubIndex));
  const seen = new Map<string, string>();
  for (const t of topics) {
    const other = seen.get(t.name);
    if (other) fail(t.file, 'name', `'${t.name}' is also the name in ${basename(other)}`);
    seen.set(t.name, t.file);
  }
  return topics.sort((a, b) => (a.name < b.name ? -1 : 1));
}
