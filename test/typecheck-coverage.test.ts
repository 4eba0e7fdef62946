/**
 * `npm run typecheck` (tsconfig.typecheck.json) and `npm run lint` (biome.json) reach every
 * script in the repository: a .ts or .mjs file committed outside them (an analysis script left
 * under results/, say) would go unchecked. The only exception is bin/tres.js, which loads the
 * built dist/ (lint checks it; every CLI test runs it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoFiles } from './repo-files.js';

const scripts = repoFiles()
  .filter((f) => /\.(ts|mts|cts|mjs|cjs|js)$/.test(f))
  // Browser code of the dashboard: linted, served as written, driven by the browser test.
  .filter((f) => !f.startsWith('src/ui/static/'));

describe('typecheck and lint cover every script', () => {
  it('type-checks every tracked TypeScript and .mjs file but bin/tres.js', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      resolve('tsconfig.typecheck.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    const checked = new Set(config?.fileNames.map((f) => resolve(f)));
    expect(scripts.length).toBeGreaterThan(100);
    expect(scripts.filter((f) => f !== 'bin/tres.js' && !checked.has(resolve(f)))).toEqual([]);
  });

  it('lints every tracked script: each lies under a folder biome.json includes', () => {
    const includes = (JSON.parse(readFileSync('biome.json', 'utf8')) as { files: { includes: string[] } })
      .files.includes;
    const folders = includes.filter((p) => p.endsWith('/**')).map((p) => p.slice(0, -2));
    const isLinted = (f: string) =>
      folders.some((folder) => f.startsWith(folder)) ||
      (!f.includes('/') && includes.includes(`*.${f.split('.').pop()}`));
    expect(scripts.filter((f) => !isLinted(f))).toEqual([]);
  });
});
