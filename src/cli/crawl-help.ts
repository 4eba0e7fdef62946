/**
 * `tres crawl --help` in parts: the first screen shows the options most crawls use, and the rest
 * is reached by topic (`tres crawl --help politeness`, or `tres help crawl politeness`), so the
 * common ones are not lost among some 40 options and every strategy's settings.
 */
import { type Command, Help, type Option } from 'commander';
import { ConfigError } from '../common/index.js';
import { strategySettingsHelp } from '../strategies/index.js';

/** One help topic of `tres crawl`. */
export interface CrawlHelpTopic {
  /** What its options decide, in a few words. */
  title: string;
  /** The options it lists, by camelCase key (commander's attribute name). */
  keys: readonly string[];
  /** Text printed after the options. */
  text?: () => string;
}

/**
 * The options on the first screen of `tres crawl --help`, by key, each with a help line short
 * enough for one line of 80 columns (its topic prints the whole text).
 */
const COMMON_CRAWL_OPTIONS: Readonly<Record<string, string>> = {
  seeds: 'file of seed URLs, one per line',
  out: 'new folder to store the crawl in',
  resume: 'continue the crawl stored in this folder',
  config: 'YAML or JSON file of these options (flags win)',
  keywords: 'topic keywords, comma separated: the judge',
  model: 'judge with a model from `tres train` instead',
  strategy: 'how to choose the next URL (default: coverage)',
  maxPages: 'page budget, failures included (default: 1000)',
  allowedDomains: 'crawl only these domains and their subdomains',
  maxDepth: 'follow links at most n hops from a seed',
  domainLimit: 'pages per web site, e.g. 10 (default: none)',
  ui: 'serve the live dashboard while crawling',
  quiet: 'no progress line (the summary is still printed)',
};

/** The keys of the options on the first screen of `tres crawl --help`. */
export const COMMON_CRAWL_KEYS: readonly string[] = Object.keys(COMMON_CRAWL_OPTIONS);

/** Exit codes and resume rules; printed under `examples`. */
const EXAMPLES = `Examples:
  tres crawl --seeds seeds.txt --out crawl1 --keywords cpu,motherboard,gpu --max-pages 5000
  tres crawl --resume crawl1                     # continue after Ctrl-C or a crash
  tres crawl --config crawl.yaml --out crawl2    # options from a file (camelCase keys), flags win
  tres crawl --seeds seeds.txt --out crawl3 --keywords debian --allowed-domains debian.org \\
    --exclude '[?&](sort|page)=' --max-depth 4 --domain-limit 5_2 --strategy tres
  tres export crawl1 --relevant-only --out relevant.csv

Output folder: crawl.sqlite (every attempt, resumable), pages.warc.gz, pages.jsonl.
Ctrl-C stops within a second (fetches in flight get 0.3 s); a second Ctrl-C stops at once.
A resume reads its options from crawl.sqlite; options given with --resume replace the stored
ones with a warning, except --strategy, --keywords, --keyphrases, --model and --site-mode,
which a resume may not change.
Exit codes: 0 done, 1 no page could be fetched, 2 bad options (nothing written), 130 interrupted;
storage faults: 73 disk full, 77 read-only storage, 65 damaged crawl.sqlite, 74 device I/O error.`;

/** The topics, in the order the first screen lists them. */
export const CRAWL_HELP_TOPICS: Readonly<Record<string, CrawlHelpTopic>> = {
  scope: {
    title: 'which URLs to crawl',
    keys: [
      'allowedDomains',
      'include',
      'exclude',
      'maxDepth',
      'domainLimit',
      'siteMode',
      'sitemaps',
      'render',
      'maxTextChars',
      'maxLinksPerPage',
    ],
  },
  budget: {
    title: 'how much and how fast',
    keys: ['maxPages', 'timeLimit', 'concurrency', 'maxFrontierUrls'],
  },
  judge: {
    title: 'what counts as relevant',
    keys: ['keywords', 'keywordsFile', 'keyphrases', 'examples', 'model', 'threshold'],
  },
  politeness: {
    title: 'how gently hosts are fetched',
    keys: ['minDelayMs', 'userAgent', 'robots', 'concurrency'],
  },
  network: { title: 'where requests go', keys: ['resolve', 'httpsAsHttp', 'allowLoopback', 'maxSockets'] },
  output: {
    title: 'what is written, resuming',
    keys: ['out', 'resume', 'config', 'warc', 'checkpointEvery', 'frontierSnapshotPages', 'quiet'],
  },
  dashboard: { title: 'the live dashboard', keys: ['ui', 'uiPort', 'uiHost', 'maxQuestions'] },
  cluster: {
    title: 'fetching on worker processes',
    keys: ['cluster', 'clusterPasswordFile', 'clusterName', 'clusterShards'],
  },
  strategies: {
    title: 'every strategy and its settings',
    keys: ['strategy', 'seed'],
    text: strategySettingsHelp,
  },
  examples: { title: 'examples, resume rules, exit codes', keys: [], text: () => EXAMPLES },
};

/** Hides the options that are not on the first screen, and names the topics after it. */
export function splitCrawlHelp(command: Command): void {
  for (const option of command.options) {
    if (!COMMON_CRAWL_KEYS.includes(option.attributeName()) && option.long !== '--help') option.hideHelp();
  }
  const full = new Help();
  command.configureHelp({
    optionDescription: (option) =>
      COMMON_CRAWL_OPTIONS[option.attributeName()] ?? full.optionDescription(option),
  });
  const width = Math.max(...Object.keys(CRAWL_HELP_TOPICS).map((t) => t.length));
  const topics = Object.entries(CRAWL_HELP_TOPICS).map(
    ([name, topic]) => `  ${name.padEnd(width)}  ${topic.title}`,
  );
  command.addHelpText(
    'after',
    [
      '',
      'More options by topic: tres crawl --help TOPIC (or tres help crawl TOPIC; all: every option)',
      ...topics,
      '',
      'Example:',
      '  tres crawl --seeds seeds.txt --out crawl1 --keywords cpu,motherboard,gpu --max-pages 5000',
    ].join('\n'),
  );
}

/** Wraps `text` to `width` columns, every line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width - indent) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** The text of one topic (or `all`): its options as commander prints them, then its text. */
export function crawlHelpTopic(command: Command, name: string): string {
  const topic =
    name === 'all'
      ? {
          title: 'every option',
          keys: command.options.filter((o) => o.long !== '--help').map((o) => o.attributeName()),
          text: () => `${EXAMPLES}\n\n${strategySettingsHelp()}`,
        }
      : CRAWL_HELP_TOPICS[name];
  if (topic === undefined) {
    throw new ConfigError(
      `no help topic "${name}" for tres crawl; the topics: ${[...Object.keys(CRAWL_HELP_TOPICS), 'all'].join(', ')}`,
      { context: { field: '--help' } },
    );
  }
  const help = new Help();
  const options = topic.keys
    .map((key) => command.options.find((o) => o.attributeName() === key))
    .filter((o): o is Option => o !== undefined);
  const termWidth = Math.min(26, Math.max(0, ...options.map((o) => help.optionTerm(o).length)));
  const width = Math.max(60, Math.min(process.stdout.columns || 80, 100));
  const lines = [`tres crawl: ${topic.title}`, ''];
  if (options.length > 0) lines.push('Options:');
  for (const option of options) {
    const term = help.optionTerm(option);
    const description = help.optionDescription(option);
    const pad =
      term.length > termWidth ? `\n${' '.repeat(termWidth + 4)}` : ' '.repeat(termWidth - term.length + 2);
    lines.push(`  ${term}${pad}${wrap(description, width, termWidth + 4)}`);
  }
  const text = topic.text?.();
  if (text) lines.push(...(options.length > 0 ? [''] : []), text);
  return `${lines.join('\n')}\n`;
}

/**
 * The topic asked for by `crawl --help TOPIC`, `crawl -h TOPIC` or `help crawl TOPIC` (the words
 * after `tres`), or undefined when the command line asks for no topic.
 */
export function requestedCrawlTopic(args: readonly string[]): string | undefined {
  if (args[0] === 'help' && args[1] === 'crawl' && args.length === 3) return args[2];
  if (args[0] !== 'crawl') return undefined;
  const at = args.findIndex((a) => a === '--help' || a === '-h');
  const topic = at < 0 ? undefined : args[at + 1];
  return topic !== undefined && !topic.startsWith('-') ? topic : undefined;
}
