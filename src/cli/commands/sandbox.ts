/**
 * `tres sandbox serve` and `tres sandbox generate`: sandbox webs on loopback, for trying tres
 * and for tests and benchmarks without the Internet.
 */
import { type Command, Option } from 'commander';
import { ConfigError } from '../../common/errors.js';
import {
  createSyntheticWeb,
  type SyntheticWebOptions,
  sandboxResolveRules,
  serveSandbox,
} from '../../sandbox/index.js';

const int = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new ConfigError(`--${name} must be a whole number >= 0, got "${value}"`);
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

function addWebOptions(command: Command): Command {
  return command
    .option('--pages <n>', 'pages in the generated web (default 20000)', int('pages'))
    .option('--hosts <n>', 'hosts (web sites) in the generated web (default 200)', int('hosts'))
    .option('--seed <value>', 'generator seed: the same seed gives the same web, byte for byte (default 1)')
    .option('--topics <list>', 'comma-separated topic names; the words of a name are its keywords')
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
      .option('--port <n>', 'TCP port (default: any free port)', int('port'))
      .addOption(
        new Option('--unknown-host <how>', 'answer for hosts not served').choices(['reset', 'misdirected']),
      ),
  ).action(
    async (
      flags: WebFlags & {
        web?: string;
        faults: boolean;
        port?: number;
        unknownHost?: 'reset' | 'misdirected';
      },
    ) => {
      const running = await serveSandbox({
        web: flags.web ?? webOptions(flags),
        faults: flags.faults,
        server: {
          ...(flags.port === undefined ? {} : { port: flags.port }),
          ...(flags.unknownHost ? { unknownHost: flags.unknownHost } : {}),
        },
      });
      const rules = sandboxResolveRules(running.server);
      const ruleText = rules.length > 12 ? `*=127.0.0.1:${running.server.port}` : rules.join(',');
      console.log(`serving ${running.server.hosts.length} hosts on ${running.server.url}`);
      if (running.web)
        console.log(`generated web: ${running.web.pageCount} pages on ${running.web.hosts.length} hosts`);
      console.log(`seed URLs: ${running.seedUrls.join(' ')}`);
      console.log(`crawl it with: tres crawl --resolve '${ruleText}' --allow-loopback --min-delay-ms 0 ...`);
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
      .option('--no-files', 'write only web.json and labels.tsv (pages are rendered on request when served)'),
  ).action(async (flags: WebFlags & { out: string; files: boolean }) => {
    const web = createSyntheticWeb(webOptions(flags));
    await web.materialize(flags.out, { writePages: flags.files ? 'auto' : false });
    console.log(
      `wrote ${web.pageCount} pages on ${web.hosts.length} hosts to ${flags.out} (labels in labels.tsv)`,
    );
  });
}
