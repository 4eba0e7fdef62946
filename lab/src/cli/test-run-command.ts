/** For the lab CLI's tests: runs one command of the lab's program and returns what it printed. */
import { Command } from 'commander';
import { vi } from 'vitest';

/** Registers a command group on a fresh program, runs `args` and returns its console.log lines. */
export async function runLabCommand(register: (program: Command) => void, args: string[]): Promise<string> {
  const program = new Command('tres').exitOverride();
  register(program);
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((s: string) => void out.push(s));
  try {
    await program.parseAsync(['node', 'tres', ...args]);
  } finally {
    log.mockRestore();
  }
  return out.join('\n');
}
