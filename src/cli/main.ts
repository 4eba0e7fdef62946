/**
 * Entry point of the `tres` command. Each sub-command lives in `commands/` and registers itself
 * on the commander program; user errors (ConfigError and friends) print one clear line and exit
 * with code 2, anything else is a bug and prints its stack. A command may ask for another exit
 * code (exit-code.ts), e.g. `tres crawl`: 1 when nothing could be fetched, 130 when interrupted.
 * The research harness's commands (benchmarks, the DocWeb builder) are not here: they are
 * `npm run lab -- ...`, the lab's package (lab/src/cli/lab.ts).
 */
import { Command, CommanderError } from 'commander';
import { ConfigError, TresError } from '../common/index.js';
import { RepairError, StorageFaultError } from '../store/index.js';
import {
  registerCrawlCommand,
  registerDemoCommand,
  registerEvaluateCommand,
  registerExportCommand,
  registerKeywordsCommand,
  registerRepairCommand,
  registerSandboxCommand,
  registerTrainCommand,
  registerUiCommand,
  registerWorkerCommand,
} from './commands/index.js';
import { crawlHelpTopic, requestedCrawlTopic } from './crawl-help.js';
import { takeExitCode } from './exit-code.js';

/** A sub-command module: adds itself to the program. */
export type RegisterCommand = (program: Command) => void;

const commands: RegisterCommand[] = [
  registerDemoCommand,
  registerCrawlCommand,
  registerSandboxCommand,
  registerExportCommand,
  registerKeywordsCommand,
  registerTrainCommand,
  registerEvaluateCommand,
  registerUiCommand,
  registerRepairCommand,
  registerWorkerCommand,
];

/** Builds the program with every sub-command. Exported for tests. */
export function buildProgram(): Command {
  const program = new Command('tres')
    .description('tres: a focused web crawler that learns where to crawl (TRES, reinforcement learning)')
    .version('0.1.0')
    .exitOverride();
  for (const register of commands) register(program);
  oneLineErrors(program);
  return program;
}

/**
 * Commander's own errors (unknown option, missing argument, a value not among the choices) in
 * the one-line `tres: ...` style of every other refusal, naming the help to read:
 * `tres: unknown option '--bogus' (did you mean --bar?); see tres crawl --help`.
 */
export function oneLineErrors(command: Command, path = command.name()): void {
  command.configureOutput({
    outputError: (text, write) => {
      const [first = '', ...rest] = text.trim().split('\n');
      const hint = rest
        .map((l) => l.trim().replace(/^\((.*)\)$/, '$1'))
        .filter(Boolean)
        .map((l) => l.charAt(0).toLowerCase() + l.slice(1));
      const message = first.replace(/^error: /, '').replace(/\.$/, '');
      write(`tres: ${message}${hint.length > 0 ? ` (${hint.join('; ')})` : ''}; see ${path} --help\n`);
    },
  });
  for (const sub of command.commands) oneLineErrors(sub, `${path} ${sub.name()}`);
}

/** Runs the command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  const topic = requestedCrawlTopic(argv.slice(2));
  if (topic !== undefined) {
    // `tres crawl --help politeness`: commander would print the first screen and ignore the topic.
    const crawl = program.commands.find((c) => c.name() === 'crawl')!;
    try {
      process.stdout.write(crawlHelpTopic(crawl, topic));
      return 0;
    } catch (error) {
      console.error(`tres: ${(error as Error).message}`);
      return 2;
    }
  }
  return runProgram(program, argv);
}

/**
 * Runs a commander program (the `tres` command, or the harness's in lab.ts) on the command line
 * with the exit codes described above; resolves to the exit code.
 */
export async function runProgram(program: Command, argv: string[]): Promise<number> {
  takeExitCode(); // a code left by an earlier in-process run is not this one's
  try {
    await program.parseAsync(argv);
    return takeExitCode() ?? (typeof process.exitCode === 'number' ? process.exitCode : 0);
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander already printed the message (or the help/version text).
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof StorageFaultError || error instanceof RepairError) {
      // One line: the file, the cause, what to do next; an exit code of its own per fault.
      console.error(`tres: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof TresError && typeof (error as { exitCode?: unknown }).exitCode === 'number') {
      // A fault with an exit code of its own (the cluster's: Redis unreachable, full, ...).
      console.error(`tres: ${error.message}`);
      return (error as unknown as { exitCode: number }).exitCode;
    }
    if (error instanceof ConfigError || error instanceof TresError) {
      console.error(`tres: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
