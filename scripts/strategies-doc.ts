/**
 * Writes docs/strategy-settings.md from the strategy registry's schemas (the same text as the
 * "Strategies" part of `tres crawl --help`).  `npx vite-node scripts/strategies-doc.ts`
 * (test/generated-docs.test.ts fails when the file is out of date).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderStrategiesDoc } from './strategies-doc-render.js';

mkdirSync('docs', { recursive: true });
writeFileSync('docs/strategy-settings.md', renderStrategiesDoc());
console.log('wrote docs/strategy-settings.md');
