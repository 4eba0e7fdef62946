/**
 * The runnable examples of docs/library.md, run as a user runs them (`node example.mjs`), with
 * the package name pointed at this checkout's sources.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from 'tres-testing/temp-dir';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const guide = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');
const examples = [...guide.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const workDir = tempDir('tres-library-');

/** Runs `example` as a module importing this checkout's library; resolves to what it logged. */
async function run(example: string, name: string): Promise<string> {
  expect(example).toContain("from 'tres-crawler'");
  const file = join(workDir, name);
  writeFileSync(file, example.replace("from 'tres-crawler'", `from '${join(ROOT, 'src', 'index.ts')}'`));
  const lines: string[] = [];
  const saved = console.log;
  console.log = (...parts: unknown[]) => lines.push(parts.join(' '));
  try {
    await import(file);
  } finally {
    console.log = saved;
  }
  return lines.join('\n');
}

describe('docs/library.md', () => {
  it('runs the sandbox crawl example', { timeout: 120_000 }, async () => {
    const example = examples.find((e) => !e.includes('registerStrategy')) ?? '';
    expect(await run(example, 'sandbox-crawl.mjs')).toMatch(/^200 pages, harvest rate \d+\.\d%$/);
  });

  it('runs the example of a strategy registered by name, with its setting from the spec', {
    timeout: 120_000,
  }, async () => {
    const example = examples.find((e) => e.includes('registerStrategy')) ?? '';
    const { parseStrategySpec, strategyNames, unregisterStrategy } = await import('../src/index.js');
    // Test files share one module graph per worker: leave the registry as it was.
    onTestFinished(() => {
      unregisterStrategy('shallow-best-first');
    });
    expect(await run(example, 'shallow-best-first.mjs')).toMatch(
      /^shallow-best-first:depthCost=0\.2: 200 pages, harvest rate \d+\.\d%$/,
    );
    // Registered in this process now: the registry lists it, parses its specs and refuses bad ones.
    expect(strategyNames().map((s) => s.name)).toContain('shallow-best-first');
    expect(parseStrategySpec('shallow-best-first:depthCost=0.5').settings).toEqual({ depthCost: 0.5 });
    expect(() => parseStrategySpec('shallow-best-first:depthCost=-1')).toThrow(
      /^strategy "shallow-best-first:depthCost=-1": depthCost must be a number >= 0, got -1$/,
    );
  });
});
