/**
 * Child process of the kill tests (compiled by crash-resume.test.ts with esbuild, not part of
 * the build). Usage: `test-kill-child.ts <dir> <create|resume> <tight|gentle> <count>`. Records
 * test pages from `pageCount()` on, printing `recorded <n>` lines: `tight` records in one
 * synchronous loop (a SIGKILL lands at any instruction), `gentle` yields between pages and closes
 * on SIGINT.
 */
import { CrawlStore } from './crawl-store.js';
import { testPayload, testRecord } from './test-helpers.js';

const [dir, mode, pace, countText] = process.argv.slice(2);
const store = CrawlStore.open(dir!, { mode: mode as 'create' | 'resume' });
const start = store.pageCount();
const end = start + Number(countText);
process.stdout.write(`ready ${start}\n`);

if (pace === 'tight') {
  for (let i = start; i < end; i++) {
    store.recordPage(testRecord(i, 50), testPayload(i, 30_000));
    if (i % 20 === 0) process.stdout.write(`recorded ${i + 1}\n`);
  }
  store.close();
  process.stdout.write('done\n');
} else {
  process.on('SIGINT', () => {
    store.close({ status: 'interrupted' });
    process.stdout.write(`closed ${store.pageCount()}\n`);
    process.exit(0);
  });
  let i = start;
  const step = () => {
    if (i >= end) return;
    store.recordPage(testRecord(i, 50), testPayload(i, 30_000));
    i++;
    process.stdout.write(`recorded ${i}\n`);
    setTimeout(step, 1);
  };
  step();
}
