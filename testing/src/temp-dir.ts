/**
 * Temporary folders for tests, removed with everything in them when the test that made one
 * ends, or, made while a test file is being collected (at its top level or in a `describe`),
 * once the file's tests have all run. Its own entry, `tres-testing/temp-dir`, because it uses
 * vitest's hooks, which only load inside vitest (the lab's benchmarks import `tres-testing`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';

/**
 * A fresh folder under the system's temporary folder whose name starts with `prefix`. Call it
 * inside a test or a `beforeEach` (removed when that test ends), or where vitest collects tests
 * (top level, `describe`: removed when the file is done); not in a `beforeAll`, where neither
 * hook can be registered (vitest throws).
 */
export function tempDir(prefix = 'tres-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(remove);
  } catch {
    afterAll(remove);
  }
  return dir;
}
