/**
 * Writes docs/errors.md from the error catalogue.  `npx vite-node scripts/errors-doc.ts`
 * (test/errors-doc.test.ts fails when the file is out of date).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderErrorsDoc } from './errors-doc-render.js';

mkdirSync('docs', { recursive: true });
writeFileSync('docs/errors.md', renderErrorsDoc());
console.log('wrote docs/errors.md');
