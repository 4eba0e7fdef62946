/**
 * Everything `tres crawl` decides before it touches the output folder: flags, the --config
 * file and (for --resume) the configuration stored with the crawl are merged and checked, seeds
 * are read, and a resume that would change what the stored records mean is refused. Nothing here
 * writes; a command refused here leaves every folder as it was.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../common/index.js';
import { loadConfigFile } from '../config/index.js';
import type { CrawlerOptions } from '../index.js';
import { withCrawlReader } from '../store/index.js';
import { parseStrategySpec, StrategySpec } from '../strategies/index.js';
import { CRAWL_FLAGS, type CrawlFlag, crawlConfigSchema, flagName } from './crawl-flags.js';
import { readSeedsFile } from './list-file.js';

/** Options of `tres crawl` that are not crawler options. */
export interface CrawlCommandFlags {
  seeds?: string;
  out?: string;
  resume?: string;
  config?: string;
  quiet?: boolean;
}

/** What a crawl command will do, checked. */
export interface CrawlPlan {
  outDir: string;
  isResume: boolean;
  /** Crawler options without the judge (a --model is loaded by the caller). */
  options: CrawlerOptions;
  /** Model folder to load as the judge, if any. */
  modelDir: string | undefined;
  /** Seed URLs as written (checked); empty for a resume without --seeds. */
  seeds: string[];
  /** One line each: flags of a resume that change a stored value. */
  warnings: string[];
  /**
   * The cluster options given (flags, then the config file), checked, with where each was
   * written (`--cluster` or `cluster in crawl.yaml`): part of this run, never stored.
   */
  cluster: Record<string, { value: unknown; where: string }>;
}

/** The options file of crawls made before the config was kept in crawl.sqlite; read, never written. */
export const LEGACY_OPTIONS_FILE = 'tres-crawl.json';

interface Given {
  flag: CrawlFlag;
  value: unknown;
  /** The option as the user wrote it: `--max-pages` or `maxPages in crawl.yaml`. */
  where: string;
  /** The value as the user wrote it. */
  raw: unknown;
}

/**
 * Merges and checks the options of a crawl command.
 * @param typed the values the user typed on the command line, by key (commander's source `cli`)
 * @throws ConfigError naming the option as the user wrote it.
 */
export function planCrawl(typed: Record<string, unknown> & CrawlCommandFlags): CrawlPlan {
  const fileValues = typed.config ? loadConfigFile(typed.config, crawlConfigSchema()) : {};
  const given = collectGiven(typed, fileValues, typed.config);
  const seedsPath = typed.seeds ?? (fileValues.seeds as string | undefined);
  const seedsWhere = typed.seeds !== undefined ? '--seeds' : `seeds in ${typed.config}`;
  const cluster = Object.fromEntries(
    given
      .filter((g) => g.flag.key.startsWith('cluster'))
      .map((g) => [g.flag.key, { value: g.value, where: g.where }]),
  );
  if (typed.resume !== undefined) {
    if (typed.out !== undefined && typed.out !== typed.resume) {
      throw new ConfigError(
        `give either --out (start a crawl there) or --resume (continue the crawl there), not both`,
      );
    }
    const stored = readStoredOptions(typed.resume);
    const { options, warnings } = overlay(stored, given);
    warnings.push(...parseStoredStrategy(options, typed.resume));
    const modelDir = options.judgeSource;
    const isRemade =
      stored.judgeName === 'keywords' || (stored.judgeName === 'cold-start' && options.examplesSource);
    if (!modelDir && stored.judgeName !== undefined && !isRemade) {
      throw new ConfigError(
        `${typed.resume} was crawled with the model "${stored.judgeName}" but its folder was not stored; pass it again with --model <dir>`,
      );
    }
    const seeds = seedsPath ? readSeedsFile(seedsPath, `${seedsWhere} file`) : [];
    return { outDir: typed.resume, isResume: true, options, modelDir, seeds, warnings, cluster };
  }
  if (typed.out === undefined) {
    throw new ConfigError('missing --out <dir> (where to store the crawl) or --resume <dir>');
  }
  if (!seedsPath) throw new ConfigError('missing --seeds <file> (one seed URL per line)');
  const options: CrawlerOptions = { outDir: typed.out };
  applyAll(options, given);
  if (!options.keywords?.length && !options.judgeSource) {
    throw new ConfigError(
      'missing the topic: give --keywords, --keywords-file or --model (the relevance judge)',
    );
  }
  if (options.examplesSource !== undefined) {
    const where = given.find((g) => g.flag.key === 'examples')?.where ?? '--examples';
    if (options.judgeSource)
      throw new ConfigError(
        `${where}: a --model is a judge trained already; give --examples with --keywords instead`,
        {
          context: { field: where },
        },
      );
    if (!options.keywords?.length)
      throw new ConfigError(
        `${where} needs --keywords or --keywords-file: the judge starts from the topic's words`,
        {
          context: { field: where },
        },
      );
  }
  const seeds = readSeedsFile(seedsPath, `${seedsWhere} file`);
  const warnings = options.strategy instanceof StrategySpec ? [...options.strategy.deprecations] : [];
  return {
    outDir: typed.out,
    isResume: false,
    options,
    modelDir: options.judgeSource,
    seeds,
    warnings,
    cluster,
  };
}

/**
 * Parses the strategy spec a resume crawls with when it is the stored text (a given --strategy
 * is parsed already), so a spec that no longer parses is refused before anything is touched.
 * @returns the spec's deprecation lines.
 * @throws ConfigError naming the crawl folder and the spec as stored.
 */
function parseStoredStrategy(options: CrawlerOptions, dir: string): string[] {
  if (typeof options.strategy === 'string') {
    try {
      options.strategy = parseStrategySpec(options.strategy);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      throw new ConfigError(`--resume ${dir}: the crawl's ${error.message}`, {
        cause: error,
        context: { file: dir },
      });
    }
  }
  return options.strategy instanceof StrategySpec ? [...options.strategy.deprecations] : [];
}

/** Checked values of every crawler option given, flags first, then the config file. */
function collectGiven(
  typed: Record<string, unknown>,
  fileValues: Record<string, unknown>,
  configPath: string | undefined,
): Given[] {
  const out: Given[] = [];
  for (const flag of CRAWL_FLAGS) {
    const fromFlag = typed[flag.key] !== undefined;
    const raw = fromFlag ? typed[flag.key] : fileValues[flag.key];
    if (raw === undefined) continue;
    const where = fromFlag ? flagName(flag) : `${flag.key} in ${configPath}`;
    if (flag.choices && !flag.choices.includes(String(raw))) {
      throw new ConfigError(
        `${where} must be one of ${flag.choices.join(', ')}, got ${JSON.stringify(raw)}`,
        {
          context: { field: where },
        },
      );
    }
    out.push({ flag, raw, where, value: flag.check ? flag.check(raw, where) : raw });
  }
  return out;
}

/** Writes checked values into `options`; --keywords and --keywords-file make one list. */
function applyAll(options: CrawlerOptions, given: Given[]): void {
  const words = topicWords(given);
  if (words !== undefined) options.keywords = words;
  for (const g of given) g.flag.apply?.(options, g.value);
}

/** The keywords of --keywords plus --keywords-file, or undefined if neither was given. */
function topicWords(given: Given[]): string[] | undefined {
  const parts = given.filter((g) => g.flag.key === 'keywords' || g.flag.key === 'keywordsFile');
  return parts.length === 0 ? undefined : parts.flatMap((g) => g.value as string[]);
}

/**
 * A resume: the stored options with the given ones on top. Options the stored records depend
 * on (strategy, topic, judge, site mode) may only be given with their stored value; others
 * replace it with a warning.
 */
function overlay(stored: StoredOptions, given: Given[]): { options: CrawlerOptions; warnings: string[] } {
  // A shallow copy: applying a flag replaces a nested object (net, urlFilter) whole, never changes
  // it in place; the strategy may be a parsed spec, which holds its registry entry's functions.
  const options = { ...stored.options };
  const warnings: string[] = [];
  const refuse = (where: string, what: string, was: unknown): never => {
    throw new ConfigError(
      `${where}: this crawl was started with ${what} ${show(was)}, which a resume cannot change (the stored pages were judged and chosen with it); start a new crawl with --out instead`,
      { context: { field: where } },
    );
  };
  const words = topicWords(given);
  if (words !== undefined && !sameValue(words, stored.options.keywords ?? [])) {
    const where = given.find((g) => g.flag.key === 'keywords' || g.flag.key === 'keywordsFile')!.where;
    refuse(where, 'the keywords', stored.options.keywords ?? []);
  }
  for (const g of given) {
    if (g.flag.key === 'keywords' || g.flag.key === 'keywordsFile' || g.flag.isRunOnly) continue;
    const was = g.flag.read?.(stored.options);
    if (sameValue(g.value, was)) continue;
    if (g.flag.isFixed) {
      if (g.flag.key === 'model') refuse(g.where, 'the judge', was ?? stored.judgeName ?? 'keywords');
      refuse(g.where, `the ${g.flag.key.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)}`, was);
    }
    warnings.push(`${g.where} ${show(g.raw)} replaces ${show(was)}, the value this crawl was started with`);
  }
  applyAll(options, given);
  return { options, warnings };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function show(value: unknown): string {
  if (value === false) return 'none (off)';
  if (value === true) return 'on';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  return value === undefined ? 'none' : String(value);
}

/** The options stored with a crawl, as crawler options, and the name of its judge. */
export interface StoredOptions {
  options: CrawlerOptions;
  /** `keywords`, or the kind of model that judged the pages. */
  judgeName: string | undefined;
}

/**
 * The configuration stored with the crawl in `dir` (meta `config` of crawl.sqlite), read without
 * changing the folder; crawls from before it was stored fall back to tres-crawl.json.
 * @throws ConfigError if `dir` holds no crawl, a running crawl holds it, or nothing is stored.
 */
export function readStoredOptions(dir: string): StoredOptions {
  if (!existsSync(join(dir, 'crawl.sqlite'))) {
    throw new ConfigError(`--resume ${dir}: no crawl found there (no crawl.sqlite)`, {
      context: { file: dir },
    });
  }
  const config = withCrawlReader(dir, (reader) => reader.meta<Record<string, unknown>>('config'));
  if (config && typeof config === 'object') {
    const { judge, outDir: _o, isResume: _r, ...rest } = config;
    const options = { ...rest, outDir: dir, isResume: true } as CrawlerOptions;
    return { options, judgeName: typeof judge === 'string' ? judge : undefined };
  }
  const legacy = join(dir, LEGACY_OPTIONS_FILE);
  if (!existsSync(legacy)) {
    throw new ConfigError(
      `--resume ${dir}: the crawl there stored no configuration (it was stopped while being created); remove the folder and start the crawl again`,
      { context: { file: dir } },
    );
  }
  return { options: readLegacyOptions(dir, legacy), judgeName: undefined };
}

/** Options of a crawl made by an older `tres crawl`, which kept its flags in tres-crawl.json. */
function readLegacyOptions(dir: string, path: string): CrawlerOptions {
  let values: Record<string, unknown>;
  try {
    values = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`--resume ${dir}: ${path} is not valid JSON`, {
      cause: error,
      context: { file: path },
    });
  }
  const schema = crawlConfigSchema();
  const known = Object.fromEntries(Object.entries(values).filter(([key]) => Object.hasOwn(schema, key)));
  const options: CrawlerOptions = { outDir: dir, isResume: true };
  applyAll(options, collectGiven({}, known, path));
  return options;
}
