import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './lab.js';

/** Runs `npm run lab -- ARGS` in this process; resolves to the exit code and what went to stderr. */
async function runLab(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => {
    stderr += `${parts.join(' ')}\n`;
  });
  const code = await main(['node', 'lab', ...args]);
  return { code, stderr };
}

describe('npm run lab -- with a bad command line', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('refuses an unknown option in one tres: line naming the help to read', async () => {
    const { code, stderr } = await runLab(['bench', 'crawl', '--topic', 'x.yaml', '--bogus']);
    expect(code).toBe(2);
    expect(stderr).toBe("tres: unknown option '--bogus'; see npm run lab -- bench crawl --help\n");
  });

  it('refuses a missing required option in one line', async () => {
    const { code, stderr } = await runLab(['bench', 'crawl']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "tres: required option '--topic <file>' not specified; see npm run lab -- bench crawl --help\n",
    );
  });

  it('refuses a bad option value in one line naming the option', async () => {
    const { code, stderr } = await runLab(['bench', 'crawl', '--topic', 'x.yaml', '--pages', 'ten']);
    expect(code).toBe(2);
    expect(stderr).toBe('tres: --pages must be a whole number >= 1, got "ten"\n');
  });

  it('refuses an unknown command in one line', async () => {
    const { code, stderr } = await runLab(['benhc']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^tres: unknown command 'benhc' \(did you mean bench\?\); see npm run lab -- --help\n$/,
    );
  });
});
