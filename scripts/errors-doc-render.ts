/** Renders docs/errors.md from the error catalogue (src/common/error-codes.ts). */
import { ERROR_CODES, type ErrorThen } from '../src/common/error-codes.js';

const THEN: Record<ErrorThen, string> = {
  retry: 'retried later (backoff, up to `maxRetries` attempts), then recorded as failed',
  defer: 'URL kept, tried again after `retryAfterMs`; no attempt counted, no budget spent',
  skip: 'URL recorded as failed with the code; the crawl goes on',
  record: 'stored with the code in its record; not used as a page',
  stop: 'the crawl stops after the fetches in flight; fix it and `--resume`',
  config: 'the command exits before it starts; the message names the flag, file or field',
  fail: 'the command that asked fails with the message',
  bug: 'a bug in tres: please report it with the message',
};

/** The whole of docs/errors.md. */
export function renderErrorsDoc(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, [then, meaning]]) => `| \`${code}\` | ${meaning} | \`${then}\`: ${THEN[then]} |`,
  );
  return [
    '# Error codes',
    '',
    '<!-- Generated from src/common/error-codes.ts by `npx vite-node scripts/errors-doc.ts`; do not edit. -->',
    '',
    'Every error tres throws on purpose is a `TresError` with a stable `code` (match on the code, not',
    'the message) and a `context` (url, host, status, file, field). Its class says what the crawl does',
    'next: `RetryLaterError` (retry), `DeferUrlError` (defer), `SkipUrlError` (skip), `StopCrawlError`',
    '(stop), `ConfigError` (config). A failed fetch is stored with its code (`errorCode` in',
    '`pages.jsonl`, `tres export`). A fetched 3xx/4xx response that is not a page is stored with',
    '`TRES_HTTP_<status>` (for example `TRES_HTTP_404`).',
    '',
    '| Code | Meaning | What the crawl does |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
