/** docs/strategy-settings.md is what scripts/strategies-doc.ts generates from the registry. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderStrategiesDoc } from '../scripts/strategies-doc-render.js';

describe('docs/strategy-settings.md', () => {
  it('lists every strategy and setting as the registry declares them (run scripts/strategies-doc.ts)', () => {
    expect(readFileSync('docs/strategy-settings.md', 'utf8')).toBe(renderStrategiesDoc());
  });
});
