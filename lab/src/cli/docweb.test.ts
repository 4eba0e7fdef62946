import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocweb } from '../docweb/index.js';
import { type DocwebFixture, fixtureBuildOptions, makeDocwebFixture } from '../docweb/test-fixture.js';
import { formatBuildSummary, registerDocwebCommand } from './docweb.js';
import { runLabCommand } from './test-run-command.js';

let fx: DocwebFixture;

beforeAll(async () => {
  fx = makeDocwebFixture();
  const summary = await buildDocweb(fixtureBuildOptions(fx));
  expect(formatBuildSummary(summary).join('\n')).toMatch(/pages {6}14 \(3 more in excluded giant trees\)/);
});
afterAll(() => fx?.cleanup());

const run = (args: string[]) => runLabCommand(registerDocwebCommand, args);

describe('npm run lab -- docweb', () => {
  it('topic: prints relevant pages per site and rule and the seed check', async () => {
    const text = await run([
      'docweb',
      'topic',
      '--topic',
      join(fx.topicsDir, 'hardware.yaml'),
      '--cache',
      fx.cacheDir,
    ]);
    expect(text).toContain('topic hardware: 3 relevant pages of 14, on 1 sites');
    expect(text).toContain('-> independent');
  });

  it('sample: writes the folders tres train reads', async () => {
    const out = join(fx.root, 'cli-sample');
    const text = await run([
      'docweb',
      'sample',
      '--topic',
      join(fx.topicsDir, 'hardware.yaml'),
      '--out',
      out,
      '--cache',
      fx.cacheDir,
      '--relevant',
      '2',
      '--ratio',
      '1',
    ]);
    expect(text).toMatch(/^wrote 2 relevant pages/);
    expect(readdirSync(join(out, 'irrelevant'))).toHaveLength(2);
  });

  it('says to build first when the cache holds no DocWeb', async () => {
    await expect(
      run([
        'docweb',
        'topic',
        '--topic',
        join(fx.topicsDir, 'hardware.yaml'),
        '--cache',
        join(fx.root, 'none'),
      ]),
    ).rejects.toThrow(/run `npm run lab -- docweb build --cache/);
  });
});
