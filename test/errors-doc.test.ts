/**
 * The error catalogue is the one list of codes: docs/errors.md is generated from it, and every
 * `TRES_*` code written in the source is in it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderErrorsDoc } from '../scripts/errors-doc-render.js';
import { ERROR_CODES, isErrorCode } from '../src/common/error-codes.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the error catalogue', () => {
  it('docs/errors.md is what scripts/errors-doc.ts generates (run it after adding a code)', () => {
    expect(readFileSync('docs/errors.md', 'utf8')).toBe(renderErrorsDoc());
  });

  it('lists every TRES_* code quoted in the source (besides TRES_HTTP_<status> and env vars)', () => {
    const missing = new Set<string>();
    for (const file of sources('src')) {
      const text = readFileSync(file, 'utf8');
      // An environment variable's name is held in a constant named `..._ENV`.
      const envNames = new Set([...text.matchAll(/_ENV = ['"`](TRES_[A-Z0-9_]+)['"`]/g)].map((m) => m[1]));
      for (const m of text.matchAll(/['"`](TRES_[A-Z0-9_]+)['"`]/g)) {
        if (envNames.has(m[1]!) || isErrorCode(m[1]!) || /^TRES_HTTP_\d+$/.test(m[1]!)) continue;
        missing.add(`${m[1]} (${file})`);
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('gives each code a meaning and one of the known outcomes', () => {
    for (const [code, [then, meaning]] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^TRES_[A-Z0-9_]+$/);
      expect(meaning.length, code).toBeGreaterThan(10);
      expect(['retry', 'defer', 'skip', 'record', 'stop', 'config', 'fail', 'bug']).toContain(then);
    }
  });
});
