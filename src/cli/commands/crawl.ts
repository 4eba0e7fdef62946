/**
 * `tres crawl`: a focused crawl from seed URLs into an output folder, resumable.
 *
 * Order matters: every option, file and stored value is checked (crawl-plan.ts), the model is
 * loaded and the output path is checked before the output folder is touched, so a refused
 * command leaves every folder as it was.
 */
import { type Command, Option } from 'commander';
import type { ClusterCoordinator } from '../../cluster/index.js';
import { ConfigError } from '../../common/index.js';
import { type CrawlSummary, DEFAULT_CRAWLER_OPTIONS, type PageJudge } from '../../crawl/index.js';
import { Crawler, crawlStrategy } from '../../index.js';
import { WebClient } from '../../net/index.js';
import { type FailureReason, indexOutlinks, withCrawlReader } from '../../store/index.js';
import type { DashboardOptions } from '../../ui/index.js';
import { CRAWL_FLAGS } from '../crawl-flags.js';
import { splitCrawlHelp } from '../crawl-help.js';
import { type CrawlCommandFlags, type CrawlPlan, planCrawl } from '../crawl-plan.js';
import { CRAWL_EXIT, crawlExitCode, formatCrawlReport, nothingFetchedMessage } from '../crawl-report.js';
import { decideResume, removeFailedStore } from '../crawl-restart.js';
import { requestExitCode } from '../exit-code.js';
import { checkNewCrawlFolder, makeCrawlFolder, removeIfEmpty } from '../out-dir.js';
import { ProgressLine } from '../progress-line.js';
import {
  type CrawlUiFlags,
  checkDashboardAddress,
  dashboardOptions,
  feedbackJudgeDir,
  keepDashboardOpen,
  startCrawlDashboard,
} from './crawl-ui.js';

const splitCommas = (value: string, previous: string[] | undefined) => [
  ...(previous ?? []),
  ...value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];
const repeat = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Time fetches in flight get to finish after Ctrl-C before they are aborted, in ms. */
const SIGINT_GRACE_MS = 300;

export function registerCrawlCommand(program: Command): void {
  const command = program
    .command('crawl')
    .description(
      'run a focused crawl from seed URLs; every page is stored in --out (SQLite, WARC, JSON lines)',
    )
    .option('--seeds <file>', 'text file with one seed URL per line (# starts a comment)')
    .option('--out <dir>', 'output folder for a new crawl; must not hold a crawl yet')
    .option('--resume <dir>', 'continue the crawl stored in this folder (after a crash or Ctrl-C)')
    .option('--config <file>', 'YAML or JSON file with any of these options in camelCase (flags win)');
  for (const flag of CRAWL_FLAGS) {
    const help = flag.defaultText === undefined ? flag.help : `${flag.help} (default: ${flag.defaultText})`;
    const option = new Option(flag.flags, help);
    if (flag.choices) option.choices(flag.choices);
    if (flag.isList) option.argParser(splitCommas);
    if (flag.isPattern) option.argParser(repeat);
    command.addOption(option);
  }
  command
    .option('--quiet', 'no progress line (the summary is still printed)')
    .action(async (_flags: unknown, cmd: Command) => {
      const summary = await runCrawlCommand(typedFlags(cmd));
      indexForSql(summary.outDir);
      const reasons = failureReasons(summary.outDir);
      console.log(formatCrawlReport(summary, reasons, summary.maxPages));
      const code = crawlExitCode(summary);
      if (code === CRAWL_EXIT.nothingFetched) {
        console.error(nothingFetchedMessage(summary, reasons, summary.isRestart));
      }
      requestExitCode(code);
      // In a terminal the finished crawl stays on the dashboard's address until Ctrl-C.
      if (summary.dashboard && process.stdin.isTTY && code !== CRAWL_EXIT.interrupted) {
        await keepDashboardOpen(summary.outDir, summary.dashboard, summary.dashboard.port);
      }
    });
  splitCrawlHelp(command);
}

/** Only the options the user typed (not commander's defaults such as --no-robots' true). */
function typedFlags(cmd: Command): Record<string, unknown> & CrawlCommandFlags {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(cmd.opts())) {
    if (cmd.getOptionValueSource(key) === 'cli') out[key] = value;
  }
  return out;
}

/** The summary of a crawl command's run, with the page budget it ran to. */
export type CrawlCommandResult = CrawlSummary & {
  maxPages: number | false;
  /** The live dashboard's options and port, when it ran. */
  dashboard?: DashboardOptions & { port: number };
  /** This run started again a crawl that had fetched nothing (see crawl-restart.ts). */
  isRestart?: boolean;
};

/**
 * Checks everything, then runs the crawl; resolves to its summary.
 * @param typed the options the user typed, by camelCase key
 * @throws ConfigError (nothing written) for bad options, seeds, paths or stored configuration.
 */
export async function runCrawlCommand(
  typed: Record<string, unknown> & CrawlCommandFlags,
): Promise<CrawlCommandResult> {
  const decision = decideResume(planCrawl(typed));
  const plan = decision.plan;
  for (const warning of [...plan.warnings, ...decision.warnings]) {
    process.stderr.write(`tres: warning: ${warning}\n`);
  }
  if (!plan.isResume && !decision.isRestart) checkNewCrawlFolder(plan.outDir);
  const ui = dashboardOptions(typed as CrawlUiFlags);
  // After relevance feedback swapped a model in, a resume judges with that model.
  const judgeDir = (plan.isResume ? feedbackJudgeDir(plan.outDir) : undefined) ?? plan.modelDir;
  const o = plan.options;
  const judge =
    judgeDir !== undefined
      ? await loadJudge(judgeDir)
      : o.examplesSource !== undefined
        ? await coldStartJudge(o.examplesSource, o)
        : undefined;
  const fetchRunner = await clusterRunner(plan.cluster);
  // The strategy from its spec (typed or stored), the crawl's seed and topic, and the judge the
  // crawl started with (--model, --examples or keywords), not a model relevance feedback swapped
  // in since: a resume then keeps the strategy's config, so its checkpoint is restored.
  const crawler = new Crawler({
    ...o,
    strategy: crawlStrategy(o),
    ...(judge ? { judge } : {}),
    // Questions only where someone sees them: the dashboard lists them and takes the answers.
    ...(ui ? { ask: true } : {}),
    // A cluster's pages are archived in the workers' own WARC files, which the store points to.
    ...(fetchRunner ? { fetchRunner, shouldWriteWarc: false } : {}),
  });
  await checkNetOptions(plan);
  if (ui) await checkDashboardAddress(ui);
  if (decision.isRestart) removeFailedStore(plan.outDir);
  // A cluster's Redis, its credentials and the crawl name's lock are checked before anything is
  // written: a refused start leaves no crawl folder, and the same command can be run again.
  await fetchRunner?.connect();
  const created = plan.isResume ? [] : makeCrawlFolder(plan.outDir);
  const line = new ProgressLine();
  const budget = { maxPages: crawler.options.maxPages, timeLimitMs: crawler.options.timeLimitMs };
  if (!typed.quiet) crawler.on('progress', (p) => line.show(p, budget));
  // A resume says whether the strategy goes on from what it had learned.
  crawler.on('checkpoint', (e) => {
    if (e.part === 'frontier') {
      if (e.kind === 'restored')
        line.note(`resuming ${e.strategy} from its frontier snapshot of page ${e.afterPage}`);
      else if (e.kind === 'skipped')
        line.note(`not using the frontier snapshot (${e.reason}): replaying every stored page`);
    } else if (e.kind === 'restored')
      line.note(`resuming ${e.strategy} from what it had learned through page ${e.afterPage}`);
    else if (e.kind === 'skipped')
      line.note(`not restoring the stored checkpoint (${e.reason}): learning starts again`);
  });
  // A crawl on a stuck web (fetches waiting on slow servers or for a file descriptor) must still
  // stop within a second of Ctrl-C: fetches in flight get SIGINT_GRACE_MS to finish, then they
  // are aborted (not recorded: a resume fetches them again).
  let interrupts = 0;
  let abortTimer: NodeJS.Timeout | undefined;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write('\nstopping: fetches in flight have 0.3 s to finish (Ctrl-C again to stop now)\n');
      crawler.stop('interrupted');
      abortTimer = setTimeout(() => crawler.abortNow(), SIGINT_GRACE_MS);
    } else crawler.abortNow();
  };
  crawler.on('warning', (message) => line.note(`tres: warning: ${message}`));
  process.on('SIGINT', onSigint);
  let closeUi: ((() => Promise<void>) & { port?: number }) | undefined;
  try {
    const running = crawler.run(plan.seeds);
    if (ui) {
      try {
        closeUi = await startCrawlDashboard(crawler, plan, ui, (text) => line.note(text));
      } catch (error) {
        crawler.stop('interrupted');
        await running.catch(() => {});
        throw error;
      }
    }
    const summary = await running;
    return {
      ...summary,
      maxPages: crawler.options.maxPages,
      ...(decision.isRestart ? { isRestart: true } : {}),
      ...(ui && closeUi?.port ? { dashboard: { ...ui, port: closeUi.port } } : {}),
    };
  } catch (error) {
    // Refused before the store was created: leave no empty folder behind.
    removeIfEmpty(created);
    // Refused before the crawl opened its fetch runner: the cluster's connection and lock go too.
    await fetchRunner?.close();
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
    clearTimeout(abortTimer);
    await closeUi?.();
    line.done();
  }
}

/**
 * The cluster coordinator of `--cluster` (or `cluster` in the config file), or undefined for a
 * crawl in this process.
 */
async function clusterRunner(
  given: Record<string, { value: unknown; where: string }>,
): Promise<ClusterCoordinator | undefined> {
  const { cluster, clusterPasswordFile: passwordFile, clusterName, clusterShards } = given;
  if (cluster === undefined) {
    if (passwordFile !== undefined)
      throw new ConfigError(`${passwordFile.where} needs --cluster`, {
        context: { field: passwordFile.where },
      });
    return undefined;
  }
  // Loaded on demand: a crawl in this process needs no Redis client.
  const { ClusterCoordinator, clusterUrlOf } = await import('../../cluster/index.js');
  const url = clusterUrlOf({
    cluster: cluster.value === true ? true : String(cluster.value),
    ...(passwordFile === undefined ? {} : { passwordFile: String(passwordFile.value) }),
    env: process.env,
    where: { cluster: cluster.where, passwordFile: passwordFile?.where ?? '--cluster-password-file' },
  });
  const coordinator = new ClusterCoordinator({
    url,
    flag: cluster.where,
    ...(clusterName === undefined ? {} : { name: String(clusterName.value) }),
    ...(clusterShards === undefined ? {} : { shards: Number(clusterShards.value) }),
    log: (line) => process.stderr.write(`tres: cluster: ${line}\n`),
  });
  return coordinator;
}

async function loadJudge(dir: string): Promise<PageJudge> {
  // Loaded on demand: the relevance room pulls in tfjs, which a keyword crawl does not need.
  const { loadModel } = await import('../../relevance/index.js');
  return loadModel(dir);
}

/**
 * The judge of `--examples`: the keyword judge that learns from the example pages and from the
 * pages the crawl meets. URLs are fetched with the crawl's network options.
 */
async function coldStartJudge(examplesSource: string, o: CrawlPlan['options']): Promise<PageJudge> {
  const { ColdStartJudge, readExamplePages } = await import('../../relevance/index.js');
  const examples = await readExamplePages(examplesSource, o.net ?? {}, '--examples');
  return new ColdStartJudge({
    keywords: o.keywords ?? [],
    examples,
    seed: o.seed ?? DEFAULT_CRAWLER_OPTIONS.seed,
  });
}

/** The network options (user agent, resolve rules, ...) are checked here, not after the store is made. */
async function checkNetOptions(plan: CrawlPlan): Promise<void> {
  let client: WebClient;
  try {
    client = new WebClient(plan.options.net ?? {});
  } catch (error) {
    if (error instanceof ConfigError && plan.isResume) {
      throw new ConfigError(`the configuration stored in ${plan.outDir}: ${error.message}`, { cause: error });
    }
    throw error;
  }
  await client.close();
}

/** Decodes the outlinks of the pages recorded since the last stop into crawl.sqlite's `outlinks` table. */
function indexForSql(dir: string): void {
  try {
    indexOutlinks(dir);
  } catch (error) {
    process.stderr.write(`tres: warning: outlinks not indexed for SQL (${(error as Error).message})\n`);
  }
}

/** Failures of the whole crawl by reason, read back from its store (none if it cannot be read). */
function failureReasons(dir: string): FailureReason[] {
  try {
    return withCrawlReader(dir, (reader) => reader.failureReasons());
  } catch {
    return [];
  }
}
