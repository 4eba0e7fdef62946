/**
 * `tres sandbox serve` and `tres sandbox generate`: sandbox webs on loopback, for trying tres
 * and for tests and benchmarks without the Internet.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { ConfigError } from '../../common/index.js';
import {
  createSyntheticWeb,
  keywordsOf,
  type Sandbox,
  type ServeSandboxOptions,
  type SyntheticWebOptions,
  sandboxResolveRules,
  serveSandbox,
} from '../../sandbox/index.js';
import { tresCommand } from '../tres-command.js';

const int = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new ConfigError(`--${name} must be a whole number >= 0, got "${value}"`);
  return n;
};

const port = (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 65535)
    throw new ConfigError(`--port must be a whole number from 1 to 65535, got "${value}"`);
  return n;
};

interface WebFlags {
  pages?: number;
  hosts?: number;
  seed?: string;
  topics?: string;
  relevantTopic?: string;
}

function webOptions(flags: WebFlags): Partial<SyntheticWebOptions> {
  const o: Partial<SyntheticWebOptions> = {};
  if (flags.pages !== undefined) o.pageCount = flags.pages;
  if (flags.hosts !== undefined) o.hostCount = flags.hosts;
  if (flags.seed !== undefined) o.seed = flags.seed;
  if (flags.topics !== undefined) o.topics = flags.topics.split(',').map((t) => t.trim());
  if (flags.relevantTopic !== undefined) o.relevantTopic = flags.relevantTopic;
  return o;
}

const SERVE_EXAMPLES = `
Examples:
  tres sandbox serve                                   # 20,000 pages on 200 hosts, any free port
  tres sandbox serve --pages 5000 --hosts 50 --port 8080 --no-faults
  tres sandbox serve --web web1                        # a web written by \`tres sandbox generate\`
It prints the seed URLs and a complete \`tres crawl\` command (resolve rules, the topic's keywords)
to copy into another terminal. Ctrl-C stops the server.`;

const GENERATE_EXAMPLES = `
Examples:
  tres sandbox generate --out web1 --pages 5000 --hosts 50
  tres sandbox generate --out web2 --topics "jazz music,cooking recipes" --relevant-topic "jazz music"
  tres sandbox serve --web web1                        # then serve it`;

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * Starts the sandbox, with a busy or forbidden --port reported in one line.
 * @throws ConfigError for a port in use or not allowed.
 */
async function startSandbox(options: ServeSandboxOptions, port: number | undefined): Promise<Sandbox> {
  try {
    return await serveSandbox(options);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      const why = code === 'EADDRINUSE' ? 'the port is in use' : 'this user may not listen on it';
      throw new ConfigError(
        `--port ${port}: ${why} (${code}); choose another or leave --port out for any free port`,
        {
          cause: error,
          context: { field: '--port' },
        },
      );
    }
    throw error;
  }
}

/** The folder the printed command writes into (the README's commands write there too). */
export const CRAWLS_DIR = 'crawls';

/**
 * The first `crawls/sandboxN` with neither a folder nor a seeds file of that name in `cwd`, so a
 * pasted command never meets a crawl folder of an earlier one nor overwrites a seeds file.
 */
export function freeSandboxName(cwd: string): string {
  for (let n = 1; ; n++) {
    const name = `${CRAWLS_DIR}/sandbox${n}`;
    if (!existsSync(join(cwd, name)) && !existsSync(join(cwd, `${name}-seeds.txt`))) return name;
  }
}

/**
 * A `tres crawl` command for the running sandbox, ready to copy: seeds file, topic, resolve
 * rules; it writes into a new `crawls/sandboxN` folder and its own seeds file (see
 * {@link freeSandboxName}).
 * @param cwd the folder the command is meant to be pasted in
 */
export function crawlCommandFor(running: Sandbox, cwd = process.cwd()): string {
  const rules = sandboxResolveRules(running.server);
  const ruleText = rules.length > 12 ? `*=127.0.0.1:${running.server.port}` : rules.join(',');
  const seeds = running.web ? running.web.seedUrls(5, { relevant: true }) : running.seedUrls;
  const topic = running.web ? keywordsOf(running.web.options.relevantTopic) : [];
  const name = freeSandboxName(cwd);
  return [
    `mkdir -p ${CRAWLS_DIR} && printf '%s\\n' ${seeds.map(quote).join(' ')} > ${name}-seeds.txt &&`,
    tresCommand(`crawl --seeds ${name}-seeds.txt --out ${name}`),
    ...(topic.length > 0 ? [`--keywords ${quote(topic.join(','))}`] : ['--keywords KEYWORDS']),
    `--resolve ${quote(ruleText)} --allow-loopback --min-delay-ms 0 --max-pages 1000`,
  ].join(' ');
}

function addWebOptions(command: Command): Command {
  return command
    .option('--pages <n>', 'pages in the generated web (default 20000)', int('pages'))
    .option('--hosts <n>', 'hosts (web sites) in the generated web (default 200)', int('hosts'))
    .option('--seed <value>', 'generator seed: the same seed gives the same web, byte for byte (default 1)')
    .option(
      '--topics <list>',
      'comma-separated topic names; the words of a name are its keywords (default: 8 topics, computer hardware first)',
    )
    .option('--relevant-topic <name>', 'which topic is relevant (default: the first)');
}

export function registerSandboxCommand(program: Command): void {
  const sandbox = program
    .command('sandbox')
    .description('sandbox webs on loopback: a generated topical web and fault sites');

  addWebOptions(
    sandbox
      .command('serve')
      .description('serve a generated web (or one written by `generate`) and the fault sites on 127.0.0.1')
      .option('--web <dir>', 'serve the web written to this folder by `tres sandbox generate`')
      .option('--no-faults', 'do not serve the fault sites (*.fault.test)')
      .option('--port <n>', 'TCP port, 1 to 65535 (default: any free port)', port)
      .addOption(
        new Option('--unknown-host <how>', 'answer for hosts not served (default: reset)').choices([
          'reset',
          'misdirected',
        ]),
      )
      .addHelpText('after', SERVE_EXAMPLES),
  ).action(
    async (
      flags: WebFlags & {
        web?: string;
        faults: boolean;
        port?: number;
        unknownHost?: 'reset' | 'misdirected';
      },
    ) => {
      const running = await startSandbox(
        {
          web: flags.web ?? webOptions(flags),
          faults: flags.faults,
          server: {
            ...(flags.port === undefined ? {} : { port: flags.port }),
            ...(flags.unknownHost ? { unknownHost: flags.unknownHost } : {}),
          },
        },
        flags.port,
      );
      console.log(`serving ${running.server.hosts.length} hosts on ${running.server.url}`);
      if (running.web) {
        const topic = running.web.options.relevantTopic;
        console.log(
          `generated web: ${running.web.pageCount} pages on ${running.web.hosts.length} hosts; relevant topic "${topic}"`,
        );
      }
      console.log(`seed URLs: ${running.seedUrls.join(' ')}`);
      console.log('crawl it with (copy and paste into another terminal):');
      console.log(`  ${crawlCommandFor(running)}`);
      console.log('press Ctrl-C to stop');
      await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
      await running.close();
    },
  );

  addWebOptions(
    sandbox
      .command('generate')
      .description(
        'write a generated web to a folder: web.json, labels.tsv, and the pages as files for small webs',
      )
      .requiredOption('--out <dir>', 'folder to write')
      .option('--no-files', 'write only web.json and labels.tsv (pages are rendered on request when served)')
      .addHelpText('after', GENERATE_EXAMPLES),
  ).action(async (flags: WebFlags & { out: string; files: boolean }) => {
    const web = createSyntheticWeb(webOptions(flags));
    await web.materialize(flags.out, { writePages: flags.files ? 'auto' : false });
    console.log(
      `wrote ${web.pageCount} pages on ${web.hosts.length} hosts to ${flags.out} (labels in labels.tsv)`,
    );
  });
}
