/**
 * Options of the crawl benchmark (`npm run lab -- bench crawl`), their defaults in one constant, and the
 * one place they are checked. The setting follows section 3 of the TRES paper: single-seed runs,
 * the sequential MDP (K = 1), domain limits none / 100 / 10 / 5 / 5_2.
 */
import { basename, extname, join } from 'node:path';
import {
  ConfigError,
  createRng,
  createStrategy,
  formatDomainLimit,
  parseDomainLimit,
  strategyNames,
} from 'tres-crawler';
import { ORACLE_STRATEGY } from './oracle-strategy.js';

export interface CrawlBenchOptions {
  /** Topic file (YAML): keywords, seeds, ground truth, and the web it lives on. Required. */
  topicFile: string;
  /**
   * Strategies, each run in turn: registered names or specs with Double DQN overrides
   * (`tres:gamma=0.5`, see `parseStrategySpec`). @default every registered strategy
   */
  strategies?: string[];
  /** Page budget T of each run (fetch attempts, failures included). @default 3000 */
  maxPages?: number;
  /** Single-seed runs per strategy and domain limit; run i starts from seed i mod seeds. @default 5 */
  runs?: number;
  /** Domain limits b (`none`, a number, `B_F`), each run for every strategy. @default ['none'] */
  domainLimits?: string[];
  /** Fetches in flight K; 1 is the papers' sequential MDP (and repeats exactly). @default 1 */
  concurrency?: number;
  /** Folder of a trained relevance model as the crawler's judge; false: the topic's keywords. @default false */
  modelDir?: string | false;
  /** Results folder. @default `bench-out/crawl-<topic file name>` (gitignored; commit a report on purpose) */
  outDir?: string;
  /** DocWeb cache folder, for topics on the DocWeb. @default the DocWeb default cache */
  cacheDir?: string;
  /**
   * The judge a user has instead of a model (`--judge`): `keywords` (the stand-in keyword judge,
   * also what no `modelDir` gives) or `user:examples=N,answers=M` (the cold-start judge from the
   * topic's keywords and N example pages drawn with the run's seed from the web's relevant pages;
   * M answers from the ground truth at most, as the crawl asks). Not with `modelDir`.
   * @default 'keywords' without modelDir
   */
  judge?: string;
  /** A page is relevant to the crawler when its judge's P >= this. @default 0.5 */
  relevanceThreshold?: number;
  /**
   * An upper-bound experiment: the crawler's reward for a page is the topic's ground-truth label
   * instead of the model's verdict (links are still scored by the model). It tells whether a
   * strategy is held back by its agent or by its reward. Links are scored by `modelDir`'s model,
   * or by the topic's keywords without one. @default false
   */
  isTruthReward?: boolean;
  /** Points per curve: one every maxPages / curvePoints pages. @default 100 */
  curvePoints?: number;
  /** Discard finished runs in the out folder instead of keeping and skipping them. @default false */
  isFresh?: boolean;
  /** The command line that started the benchmark, written into the report. @default the process argv */
  command?: string;
  /**
   * Crawl the web as an open world: links to hosts the web does not serve are attempted (and
   * fail), as on the real web. The default closed world drops them before the strategy sees them
   * (a URL scope, as allowed domains are); the report says what share of links left the web.
   * @default false
   */
  isOpenWorld?: boolean;
  /** Where progress lines go (one per finished run); false for silence. @default console.log */
  log?: ((line: string) => void) | false;
  /**
   * Keep each new run's crawl store (crawl.sqlite: every attempt, its URL, reward and domain) in
   * `<keepStoresDir>/<strategy>_<limit>__run<i>/` instead of deleting it, to look at what a run
   * fetched. @default undefined (deleted)
   */
  keepStoresDir?: string;
}

/** Options after defaults are filled in and checked. */
export type ResolvedCrawlBenchOptions = Required<
  Omit<CrawlBenchOptions, 'cacheDir' | 'log' | 'keepStoresDir' | 'judge'>
> & {
  /** The parsed `judge`; undefined: the model of modelDir, or the keyword judge without one. */
  userJudge: UserJudgeSpec | undefined;
  cacheDir: string | undefined;
  keepStoresDir: string | undefined;
  log: (line: string) => void;
};

/** Defaults of every optional field (strategies and outDir are computed). */
export const DEFAULT_CRAWL_BENCH_OPTIONS = {
  maxPages: 3000,
  runs: 5,
  domainLimits: ['none'],
  concurrency: 1,
  modelDir: false,
  relevanceThreshold: 0.5,
  curvePoints: 100,
  isFresh: false,
  isOpenWorld: false,
  isTruthReward: false,
} as const satisfies Partial<CrawlBenchOptions>;

/** The five domain limits of the paper's Table 3. */
export const PAPER_DOMAIN_LIMITS = ['none', '100', '10', '5', '5_2'] as const;

function positiveInt(value: number, field: string): void {
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${field} must be a positive whole number, got ${value}`, { context: { field } });
}

/**
 * Fills in defaults and checks every field once.
 * @throws ConfigError naming the field: unknown strategy, bad domain limit, a budget below 1.
 */
export function resolveCrawlBenchOptions(options: CrawlBenchOptions): ResolvedCrawlBenchOptions {
  if (!options.topicFile)
    throw new ConfigError('topicFile is required (a topic YAML file, e.g. data/topics/hardware.yaml)', {
      context: { field: 'topicFile' },
    });
  const d = DEFAULT_CRAWL_BENCH_OPTIONS;
  const known = strategyNames().map((s) => s.name);
  const strategies = unique(
    options.strategies?.length ? options.strategies : [...known, ORACLE_STRATEGY],
    'strategies',
  );
  for (const spec of strategies) if (spec !== ORACLE_STRATEGY) checkStrategy(spec, known);
  const domainLimits = unique(
    (options.domainLimits?.length ? options.domainLimits : d.domainLimits).map((text) =>
      formatDomainLimit(parseDomainLimit(text, 'domainLimits')),
    ),
    'domainLimits',
  );
  const resolved: ResolvedCrawlBenchOptions = {
    topicFile: options.topicFile,
    strategies,
    maxPages: options.maxPages ?? d.maxPages,
    runs: options.runs ?? d.runs,
    domainLimits,
    concurrency: options.concurrency ?? d.concurrency,
    modelDir: options.modelDir || d.modelDir,
    outDir:
      options.outDir ?? join('bench-out', `crawl-${basename(options.topicFile, extname(options.topicFile))}`),
    cacheDir: options.cacheDir,
    keepStoresDir: options.keepStoresDir,
    relevanceThreshold: options.relevanceThreshold ?? d.relevanceThreshold,
    curvePoints: options.curvePoints ?? d.curvePoints,
    isFresh: options.isFresh ?? d.isFresh,
    isOpenWorld: options.isOpenWorld ?? d.isOpenWorld,
    isTruthReward: options.isTruthReward ?? d.isTruthReward,
    userJudge: options.judge === undefined ? undefined : parseBenchJudge(options.judge),
    command: options.command ?? process.argv.join(' '),
    log: options.log === false ? () => {} : (options.log ?? ((line) => console.log(line))),
  };
  if (resolved.isTruthReward && resolved.userJudge)
    throw new ConfigError(
      'isTruthReward (--truth-reward) and a user judge (--judge user:...) are two rewards: give one',
      {
        context: { field: 'isTruthReward' },
      },
    );
  if (options.judge !== undefined && resolved.modelDir !== false)
    throw new ConfigError('judge (--judge) and modelDir (--model) are two judges: give one', {
      context: { field: 'judge' },
    });
  positiveInt(resolved.maxPages, 'maxPages');
  positiveInt(resolved.runs, 'runs');
  positiveInt(resolved.concurrency, 'concurrency');
  positiveInt(resolved.curvePoints, 'curvePoints');
  if (!(resolved.relevanceThreshold > 0 && resolved.relevanceThreshold <= 1))
    throw new ConfigError(`relevanceThreshold must be in (0, 1], got ${resolved.relevanceThreshold}`, {
      context: { field: 'relevanceThreshold' },
    });
  return resolved;
}

/**
 * Checks a strategy spec by making the strategy once, so a typo or a bad override fails before the
 * first run, not an hour into the benchmark. `tres:gamma=0.5` is a variant of `tres`.
 */
function checkStrategy(spec: string, known: string[]): void {
  const fail = (message: string, cause?: unknown) => {
    throw new ConfigError(`strategies: ${message}`, { context: { field: 'strategies' }, cause });
  };
  try {
    const name = spec.split(':')[0]?.trim() ?? '';
    if (!known.includes(name)) fail(`unknown strategy "${name}"; registered: ${known.join(', ')}`);
    createStrategy(spec, { rng: createRng('check') });
  } catch (error) {
    if (error instanceof ConfigError && error.message.startsWith('strategies: ')) throw error;
    fail(error instanceof Error ? error.message : String(error), error);
  }
}

function unique(values: string[], field: string): string[] {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) throw new ConfigError(`${field}: "${v}" is listed twice`, { context: { field } });
    seen.add(v);
  }
  return values;
}

/** How a run is named in files and tables: `bfs`, `bfs_100`, `tres_5_2` (the paper's TRES_5_2). */
export function configLabel(strategy: string, domainLimit: string): string {
  return domainLimit === 'none' ? strategy : `${strategy}_${domainLimit}`;
}

/** The simulated user of `--judge user:...`: what the user gives the crawl. */
export interface UserJudgeSpec {
  /** Example relevant pages, drawn with the run's seed from the web's relevant pages. */
  examples: number;
  /** Most questions answered (from the ground truth) while the crawl runs. */
  answers: number;
  /**
   * Settings of the cold-start judge by name (`learn=0` never learns, `share=0.5` the examples'
   * weight; `feedback=1`: instead of it, the keyword judge retrained on the answers by relevance
   * feedback, as `tres crawl` with keywords does), to measure its parts; the judge's
   * defaults otherwise.
   */
  settings: Record<string, number>;
}

const USER_JUDGE_KEYS = ['examples', 'answers', 'learn', 'feedback', 'share', 'first', 'every'];

/**
 * Reads a `--judge` spec: `keywords` (undefined: the keyword judge) or
 * `user:examples=N,answers=M[,learn=0|1,feedback=0|1,share=X,first=N,every=N]`.
 * @throws ConfigError naming `judge` and the part that is wrong
 */
export function parseBenchJudge(spec: string): UserJudgeSpec | undefined {
  const fail = (why: string): never => {
    throw new ConfigError(
      `judge: ${why} in "${spec}"; give keywords or user:examples=N,answers=M (e.g. user:examples=10,answers=50)`,
      { context: { field: 'judge' } },
    );
  };
  if (spec === 'keywords') return undefined;
  if (spec !== 'user' && !spec.startsWith('user:')) fail('unknown judge');
  const settings: Record<string, number> = {};
  for (const part of spec.slice(5).split(',').filter(Boolean)) {
    const [k, v, ...rest] = part.split('=');
    const n = Number(v);
    if (!k || v === undefined || rest.length > 0 || v.trim() === '' || !Number.isFinite(n) || n < 0)
      fail(`"${part}" is not NAME=NUMBER (a number >= 0)`);
    if (!USER_JUDGE_KEYS.includes(k as string))
      fail(`unknown setting "${k}" (known: ${USER_JUDGE_KEYS.join(', ')})`);
    settings[k as string] = n;
  }
  const { examples = 0, answers = 0, ...rest } = settings;
  if (!Number.isInteger(examples) || !Number.isInteger(answers))
    fail('examples and answers must be whole numbers');
  return { examples, answers, settings: rest };
}
