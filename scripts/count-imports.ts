/**
 * Prints the import figures: imports between rooms (folders directly under src/) and
 * how many bypass the target room's index.ts, the same between any two folders, and two-file
 * import cycles.  `npx vite-node scripts/count-imports.ts [-- [--list] [SRC_DIR]]`
 */
import { folderBypasses, importEdges, roomBypasses, roomOf, twoFileCycles } from '../test/import-graph.js';

const srcDir = process.argv.slice(2).find((a) => !a.startsWith('-') && a !== '--') ?? 'src';
const edges = importEdges(srcDir);
const isTest = (p: string) => /\.test\.ts$|(^|\/)test-[^/]*\.ts$/.test(p);
const cross = edges.filter((e) => roomOf(e.to) !== '' && roomOf(e.from) !== roomOf(e.to));
const bypass = roomBypasses(edges);
const folders = folderBypasses(edges);
console.log(`imports between rooms:                    ${cross.length}`);
console.log(`  bypassing the room's index.ts:          ${bypass.length}`);
console.log(`    from product files:                   ${bypass.filter((e) => !isTest(e.from)).length}`);
console.log(`    from tests and test support:          ${bypass.filter((e) => isTest(e.from)).length}`);
console.log(`imports between folders (any depth):      ${folders.between}`);
console.log(`  into a folder past its index.ts:        ${folders.bypass.length}`);
const cycles = twoFileCycles(edges);
console.log(`two-file import cycles:                   ${cycles.length}`);
for (const [a, b] of cycles) console.log(`  ${a} <-> ${b}`);
if (process.argv.includes('--list'))
  for (const e of [...bypass, ...folders.bypass]) console.log(`${e.from} -> ${e.specifier}`);
