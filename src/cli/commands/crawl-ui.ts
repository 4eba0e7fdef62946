/**
 * `tres crawl --ui`: the dashboard served by the crawl's own process (the store is locked by it),
 * with the crawl's questions and relevance feedback, and the judge a resume takes from a crawl's
 * feedback.
 */
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from '../../common/index.js';
import type { Crawler } from '../../crawl/index.js';
import { withCrawlReader } from '../../store/index.js';
import {
  CrawlMonitor,
  type DashboardOptions,
  DEFAULT_DASHBOARD_OPTIONS,
  liveSource,
  RelevanceFeedback,
  resumeModelDir,
  startDashboard,
} from '../../ui/index.js';
import { CRAWL_FLAGS, flagName } from '../crawl-flags.js';
import type { CrawlPlan } from '../crawl-plan.js';

/** The dashboard flags as typed. */
export interface CrawlUiFlags {
  ui?: boolean;
  uiPort?: string;
  uiHost?: string;
}

/**
 * Dashboard options from --ui, --ui-port and --ui-host (either of the last two implies --ui), or
 * undefined when no dashboard was asked for.
 * @throws ConfigError naming the flag for a bad port or address.
 */
export function dashboardOptions(typed: CrawlUiFlags): DashboardOptions | undefined {
  if (!typed.ui && typed.uiPort === undefined && typed.uiHost === undefined) return undefined;
  const checked = (key: string, raw: unknown) => {
    const flag = CRAWL_FLAGS.find((f) => f.key === key)!;
    return flag.check ? flag.check(raw, flagName(flag)) : raw;
  };
  const out: DashboardOptions = {};
  if (typed.uiPort !== undefined) out.port = checked('uiPort', typed.uiPort) as number;
  if (typed.uiHost !== undefined) out.host = checked('uiHost', typed.uiHost) as string;
  return out;
}

/**
 * Checks that the dashboard's address can be bound, before the crawl folder is touched (a
 * refused command leaves every folder as it was).
 * @throws ConfigError naming --ui-port or --ui-host.
 */
export async function checkDashboardAddress(options: DashboardOptions): Promise<void> {
  const host = options.host ?? DEFAULT_DASHBOARD_OPTIONS.host;
  const port = options.port ?? DEFAULT_DASHBOARD_OPTIONS.port;
  const server = createServer();
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const field = e.code === 'EADDRINUSE' ? '--ui-port' : '--ui-host';
      const next =
        e.code === 'EADDRINUSE'
          ? `; the port is in use: choose another, such as --ui-port ${port + 1}, or --ui-port 0 for any free port`
          : '; give an address of this machine, such as --ui-host 127.0.0.1';
      reject(
        new ConfigError(
          `${field}: the dashboard cannot listen on ${host} port ${port} (${e.code ?? e.message})${next}`,
          {
            context: { field },
            cause: e,
          },
        ),
      );
    });
    server.listen(port, host, () => server.close(() => resolveListen()));
  });
}

/** The model a resumed crawl judges with after relevance feedback swapped one in, if any. */
export function feedbackJudgeDir(outDir: string): string | undefined {
  try {
    return withCrawlReader(outDir, (r) => resumeModelDir(outDir, r.meta('feedback')));
  } catch {
    return undefined; // no store yet, or unreadable: the crawl's own checks will say why
  }
}

/**
 * Starts the dashboard of a crawl whose `run()` was just called (its store is open); prints its
 * address (and the token, once) with `say`, a line each (stderr by default).
 * @returns a function that closes it.
 */
export async function startCrawlDashboard(
  crawler: Crawler,
  plan: CrawlPlan,
  options: DashboardOptions,
  say: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<(() => Promise<void>) & { port?: number }> {
  const store = crawler.openStore;
  if (!store) return async () => {};
  const monitor = new CrawlMonitor().attach(crawler);
  // Failures recorded before it attached (earlier runs, the first pages): in the same tick as
  // attach, so none is missed or counted twice.
  monitor.loadFailures(store.failureCounts());
  const o = crawler.options;
  const feedback = new RelevanceFeedback({
    crawler,
    store,
    outDir: plan.outDir,
    threshold: o.relevanceThreshold,
    keywords: o.keywords ?? [],
    ...(plan.modelDir ? { baseModelDir: resolve(plan.modelDir) } : {}),
  });
  // Answers to the crawl's questions (the dashboard's questions panel) retrain like labels.
  feedback.watchAnswers(crawler);
  const strategy = o.strategy.name;
  const dashboard = await startDashboard(
    liveSource({ crawler, store, monitor, feedback, strategy, outDir: plan.outDir, maxPages: o.maxPages }),
    options,
  );
  say(`tres: dashboard at ${dashboard.url}`);
  if (dashboard.token) {
    say(
      'tres: the dashboard is bound off loopback: every API call needs the token in that address (or as Authorization: Bearer)',
    );
  }
  return Object.assign(() => dashboard.close(), { port: dashboard.port });
}

/**
 * After a crawl with a dashboard ends in a terminal: the finished crawl stays on the same address,
 * read-only, until Ctrl-C, instead of the page going blank the moment the crawl ends.
 * @param port the port the live dashboard had (so the open browser tab keeps working)
 */
export async function keepDashboardOpen(
  outDir: string,
  options: DashboardOptions,
  port: number,
): Promise<void> {
  // Loaded here: `tres ui` is a command of its own; this is its view of the crawl folder.
  const { serveCrawlFolder } = await import('./ui.js');
  const dashboard = await serveCrawlFolder(outDir, {
    uiPort: String(port),
    ...(options.host === undefined ? {} : { uiHost: options.host }),
  });
  process.stderr.write(
    `tres: the crawl ended; its dashboard stays at ${dashboard.url} (read-only) until Ctrl-C\n`,
  );
  await new Promise<void>((resolveWait) => process.once('SIGINT', () => resolveWait()));
  await dashboard.close();
}
