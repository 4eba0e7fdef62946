/**
 * Fetch-order fingerprints: every strategy of the registry (and a few spec variants that set its
 * settings) crawls the same seeded generated web for PAGES pages with one fetch at a time, and
 * the script prints a SHA-256 of the fetched URLs in order, one line per strategy. A refactor that
 * changes no behaviour leaves every line identical.
 *
 *   npx vite-node scripts/fetch-order-fingerprint.ts                  # print
 *   npx vite-node scripts/fetch-order-fingerprint.ts -- --out F.txt   # print and save
 *   npx vite-node scripts/fetch-order-fingerprint.ts -- --check F.txt # exit 1 on any difference
 *   ... --only coverage,best-first                                    # only these labels' first words
 *
 * A strategy missing from the saved file (added since) is reported as new, not as a failure.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Crawler, sandboxResolveRules, serveSandbox, strategyNames } from '../src/index.js';
import { keywordsOf } from '../src/sandbox/index.js';
import { fetchedUrls } from '../src/store/test-helpers.js';

const TOPIC = 'astronomy telescopes';
const PAGES = 300;

/**
 * Spec variants beside each bare name, labelled so that a renamed spec key keeps its line:
 * label = what it is, spec = how the registry spells it now.
 */
const VARIANTS: { label: string; spec: string }[] = [
  { label: 'tres random-warmup', spec: 'tres:warmupPolicy=random' },
  { label: 'tres no-learning', spec: 'tres:isLearning=false,warmupSteps=50,batchSize=16' },
  { label: 'tres dqn', spec: 'tres:isDoubleQ=false,warmupSteps=50,batchSize=16' },
  { label: 'tres short-warmup', spec: 'tres:warmupSteps=50,batchSize=16' },
  { label: 'tres parent-probability', spec: 'tres:parentFeature=probability,gamma=0.5,maxDepth=6' },
  { label: 'ache domain-cap learn-every', spec: 'ache:maxLinksPerDomain=20,learnEveryPages=100' },
  { label: 'ache no-hard-focus', spec: 'ache:isHardFocus=false,learnEveryPages=100' },
  { label: 'lim-dfs parse-above-off', spec: 'lim-dfs:parseAbove=false,shouldUseRealState=false' },
  { label: 'lim-q parse-above real-state', spec: 'lim-q:parseAbove=0.2,shouldUseRealState=true' },
  { label: 'han-async overrides', spec: 'han-async:epsilon=0.2,isLearning=false' },
  { label: 'rlwcs overrides', spec: 'rlwcs:retrainEvery=50,isLearning=false' },
  { label: 'apprentice overrides', spec: 'apprentice:batchPages=50,isLearning=false' },
  // The coverage lines below fix the settings whose defaults differ from the ones each line was
  // first taken with (isRefoundScreened, isHubSiteValued, siteShareValue, newSitePatience; gain, whose default
  // follows the judge and this crawl is judged by keywords), so that each keeps its fetch order
  // as the defaults move. `coverage verdict` is the default's order with a trained judge.
  { label: 'coverage verdict', spec: 'coverage:gain=verdict' },
  {
    label: 'coverage saturation',
    spec: 'coverage:siteSaturation=100,newSitePatience=false,siteShareValue=false,isRefoundScreened=false,isHubSiteValued=false,gain=verdict',
  },
  {
    label: 'coverage no-context',
    spec: 'coverage:siteSaturation=100,isContextUsed=false,newSitePatience=false,siteShareValue=false,isRefoundScreened=false,isHubSiteValued=false,gain=verdict',
  },
  // lambda fixed at 1, no diminishing returns per site, no anchor scores.
  {
    label: 'coverage old-defaults',
    spec: 'coverage:newSiteValue=1,siteSaturation=false,isAnchorScoreUsed=false,newSitePatience=false,siteShareValue=false,isRefoundScreened=false,isHubSiteValued=false,gain=verdict',
  },
  {
    label: 'coverage hub-sites',
    spec: 'coverage:isHubSiteValued=true,newSitePatience=false,siteShareValue=false,isRefoundScreened=false,gain=verdict',
  },
  {
    label: 'coverage no-patience',
    spec: 'coverage:newSitePatience=false,siteShareValue=false,isRefoundScreened=false,isHubSiteValued=false,gain=verdict',
  },
  {
    label: 'coverage fixed-lambda',
    spec: 'coverage:siteShareValue=false,isRefoundScreened=false,isHubSiteValued=false,gain=verdict',
  },
  {
    label: 'coverage no-screen',
    spec: 'coverage:isRefoundScreened=false,isHubSiteValued=false,siteShareValue=0.15,gain=verdict',
  },
  { label: 'coverage no-hub', spec: 'coverage:isHubSiteValued=false,siteShareValue=0.15,gain=verdict' },
];

async function main(argv: string[]): Promise<number> {
  const outFile = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : undefined;
  const checkFile = argv.includes('--check') ? argv[argv.indexOf('--check') + 1] : undefined;
  const only = argv.includes('--only') ? (argv[argv.indexOf('--only') + 1] ?? '').split(',') : undefined;
  const sandbox = await serveSandbox({
    web: {
      seed: 5,
      hostCount: 30,
      pageCount: 3000,
      topics: [TOPIC, 'cooking recipes'],
      relevantTopic: TOPIC,
    },
  });
  const base = mkdtempSync(join(tmpdir(), 'tres-fingerprint-'));
  const lines: string[] = [];
  try {
    const runs = [...strategyNames().map(({ name }) => ({ label: name, spec: name })), ...VARIANTS].filter(
      ({ label }) => only === undefined || only.includes(label.split(' ')[0] as string),
    );
    for (const [i, { label, spec }] of runs.entries()) {
      const outDir = join(base, String(i));
      await new Crawler({
        outDir,
        strategy: spec,
        seed: 9,
        keywords: keywordsOf(TOPIC),
        maxPages: PAGES,
        maxConcurrency: 1,
        net: { minDelayMs: 0, resolveRules: sandboxResolveRules(sandbox.server), allowLoopback: true },
      }).run(sandbox.web!.seedUrls(2, { relevant: true }));
      const urls = fetchedUrls(outDir);
      const hash = createHash('sha256').update(urls.join('\n')).digest('hex').slice(0, 16);
      const line = `${label.padEnd(28)} ${String(urls.length).padStart(4)} ${hash}`;
      lines.push(line);
      console.log(line);
    }
  } finally {
    await sandbox.close();
    rmSync(base, { recursive: true, force: true });
  }
  if (outFile) writeFileSync(outFile, `${lines.join('\n')}\n`);
  if (!checkFile) return 0;
  const saved = new Map(
    readFileSync(checkFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, 28).trim(), l.slice(29)]),
  );
  let differ = 0;
  for (const line of lines) {
    const label = line.slice(0, 28).trim();
    const before = saved.get(label);
    if (before === undefined) console.log(`new:     ${label}`);
    else if (before !== line.slice(29)) {
      differ++;
      console.log(`CHANGED: ${label}: was ${before}, now ${line.slice(29)}`);
    }
    saved.delete(label);
  }
  const gone = [...saved.keys()].filter(
    (label) => only === undefined || only.includes(label.split(' ')[0] as string),
  );
  for (const label of gone) console.log(`gone:    ${label}`);
  console.log(differ === 0 ? 'fingerprints identical' : `${differ} fingerprints changed`);
  return differ === 0 && gone.length === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
