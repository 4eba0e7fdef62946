/**
 * `tres ui DIR`: the dashboard of a crawl folder, read-only: a finished or interrupted crawl from
 * its store, a crawl running in another process from its pages.jsonl. Runs until Ctrl-C.
 */
import type { Command } from 'commander';
import { readOnlySource } from '../../ui/read-only-source.js';
import { type Dashboard, DEFAULT_DASHBOARD_OPTIONS, startDashboard } from '../../ui/server.js';
import { wholeNumber } from '../crawl-checks.js';

/** Registers `tres ui`. */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description(
      'serve the dashboard of a crawl folder, read-only (charts, pages, labels, REST API, /metrics)',
    )
    .argument('<dir>', 'crawl folder (finished, interrupted, or running in another process)')
    .option('--port <n>', `TCP port (0: any free port) (default: ${DEFAULT_DASHBOARD_OPTIONS.port})`)
    .option(
      '--host <address>',
      `address to bind; anything but loopback requires the token it prints (default: ${DEFAULT_DASHBOARD_OPTIONS.host})`,
    )
    .addHelpText(
      'after',
      '\nA crawl running in this process has its own live dashboard: tres crawl --ui.\nExample:\n  tres ui crawl1 --port 8080',
    )
    .action(async (dir: string, opts: UiCommandFlags) => {
      const dashboard = await serveCrawlFolder(dir, opts);
      console.error(`tres: dashboard of ${dir} (read-only) at ${dashboard.url}; Ctrl-C to stop`);
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      await dashboard.close();
    });
}

/** Flags of `tres ui`, as typed. */
export interface UiCommandFlags {
  port?: string;
  host?: string;
}

/**
 * Serves the read-only dashboard of crawl folder `dir`; `close()` stops it and closes the folder.
 * @throws ConfigError for a folder without a crawl, a bad --port, or an address in use.
 */
export async function serveCrawlFolder(dir: string, opts: UiCommandFlags): Promise<Dashboard> {
  const port = opts.port === undefined ? undefined : (wholeNumber(0)(opts.port, '--port') as number);
  const source = await readOnlySource(dir);
  try {
    const dashboard = await startDashboard(source, {
      ...(port === undefined ? {} : { port }),
      ...(opts.host === undefined ? {} : { host: opts.host }),
    });
    return {
      ...dashboard,
      close: async () => {
        await dashboard.close();
        source.close();
      },
    };
  } catch (error) {
    source.close();
    throw error;
  }
}
