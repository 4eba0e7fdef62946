/**
 * `tres ui DIR`: the dashboard of a crawl folder, read-only: a finished or interrupted crawl from
 * its store, a crawl running in another process from its pages.jsonl. Runs until Ctrl-C.
 */
import { type Command, Option } from 'commander';
import { type Dashboard, DEFAULT_DASHBOARD_OPTIONS, readOnlySource, startDashboard } from '../../ui/index.js';
import { portNumber } from '../crawl-checks.js';

/** Registers `tres ui`. */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description(
      'serve the dashboard of a crawl folder, read-only (charts, pages, labels, REST API, /metrics)',
    )
    .argument('<dir>', 'crawl folder (finished, interrupted, or running in another process)')
    .option('--ui-port <n>', `TCP port (0: any free port) (default: ${DEFAULT_DASHBOARD_OPTIONS.port})`)
    .option(
      '--ui-host <address>',
      `address to bind; anything but loopback requires the token it prints (default: ${DEFAULT_DASHBOARD_OPTIONS.host})`,
    )
    // The names of `tres crawl --ui-port/--ui-host`; the older --port and --host still work.
    .addOption(new Option('--port <n>').hideHelp())
    .addOption(new Option('--host <address>').hideHelp())
    .addHelpText(
      'after',
      '\nThe flags are those of the live dashboard of a crawl (tres crawl --ui --ui-port N).\nExample:\n  tres ui crawl1 --ui-port 8080',
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
  uiPort?: string;
  uiHost?: string;
  /** Older name of --ui-port. */
  port?: string;
  /** Older name of --ui-host. */
  host?: string;
}

/**
 * Serves the read-only dashboard of crawl folder `dir`; `close()` stops it and closes the folder.
 * @throws ConfigError for a folder without a crawl, a bad --port, or an address in use.
 */
export async function serveCrawlFolder(dir: string, opts: UiCommandFlags): Promise<Dashboard> {
  const portFlag = opts.uiPort !== undefined ? '--ui-port' : '--port';
  const portText = opts.uiPort ?? opts.port;
  const port = portText === undefined ? undefined : portNumber(portText, portFlag);
  const host = opts.uiHost ?? opts.host;
  const source = await readOnlySource(dir);
  try {
    const dashboard = await startDashboard(source, {
      ...(port === undefined ? {} : { port }),
      ...(host === undefined ? {} : { host }),
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
