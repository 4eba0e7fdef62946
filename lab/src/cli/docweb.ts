/**
 * `npm run lab -- docweb`: the DocWeb, a real web of documentation sites built from Debian packages, plus a
 * directory hub built from apt's metadata. Sub-commands: `build` (download, extract, index),
 * `links` (count the link graph), `grow` (add the packages the links point at), `serve` (replay
 * server on loopback), `topic` (what a topic file labels, and its seed check), `sample` (training
 * data for a topic's classifier).
 */
import { type Command, Option } from 'commander';
import { ConfigError } from 'tres-crawler';
import {
  buildDocweb,
  countLinkGraph,
  type DocwebBuildSummary,
  DocwebDb,
  defaultCacheDir,
  describeCandidate,
  formatLinkGraph,
  formatTopicReport,
  growDocweb,
  loadTopic,
  readHubIndex,
  SAMPLE_DEFAULTS,
  SAMPLE_DRAWS,
  type SampleDraw,
  sampleTrainingData,
  startDocweb,
  topicReport,
  writeLinkGraph,
} from '../docweb/index.js';

const wholeNumber = (name: string, min: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new ConfigError(`--${name} must be a whole number >= ${min}, got "${value}"`);
  return n;
};
const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n))
    throw new ConfigError(`--${name} must be a number > 0, got "${value}"`);
  return n;
};

const CACHE_HELP = 'DocWeb cache folder (default $TRES_CACHE_DIR/docweb or ~/.cache/tres/docweb)';

/** Adds `npm run lab -- docweb build|serve|topic|sample` to the program. */
export function registerDocwebCommand(program: Command): void {
  const docweb = program
    .command('docweb')
    .description('DocWeb: a real web of Debian documentation sites, served on loopback for benchmarks');

  docweb
    .command('build')
    .description('download (apt-get download), extract (dpkg-deb -x) and index the DocWeb; resumable')
    .option('--cache <dir>', CACHE_HELP)
    .option(
      '--exclude-heavy',
      'leave out the heavy packages (rust-doc, openjdk-17-doc, scala-doc, ghc-doc, gnucash-docs)',
    )
    .option('--manifest <file>', 'sites manifest (default data/docweb/sites.json)')
    .option('--topics <dir>', 'topic files used to label pages (default data/topics)')
    .option('--reindex', 'rewrite the site and page tables even if nothing changed')
    .option('--no-hub', 'leave out the directory hub (packages.debian.org built from apt metadata)')
    .addHelpText(
      'after',
      '\nNeeds about 0.85 GB of downloads and 4.8 GB on disk for the first 75 sites (3.1 GB with\n' +
        '--exclude-heavy); sites added by `npm run lab -- docweb grow` are in the manifest and come with it.\n' +
        'Run as root or with apt access; runs `apt-get update` first when the package lists are missing.\n\n' +
        'Examples:\n' +
        '  npm run lab -- docweb build --cache /work/cache/docweb\n' +
        '  npm run lab -- docweb build --exclude-heavy --no-hub',
    )
    .action(
      async (flags: {
        cache?: string;
        excludeHeavy?: boolean;
        manifest?: string;
        topics?: string;
        reindex?: boolean;
        hub?: boolean;
      }) => {
        const summary = await buildDocweb({
          cacheDir: flags.cache,
          shouldExcludeHeavy: Boolean(flags.excludeHeavy),
          shouldReindex: Boolean(flags.reindex),
          shouldBuildHub: flags.hub !== false,
          ...(flags.manifest ? { manifestPath: flags.manifest } : {}),
          ...(flags.topics ? { topicsDir: flags.topics } : {}),
        });
        console.log(formatBuildSummary(summary).join('\n'));
      },
    );

  docweb
    .command('links')
    .description(
      'count the links of a built DocWeb: how many cross-host links resolve, and the most linked hosts not served',
    )
    .option('--cache <dir>', CACHE_HELP)
    .option('--out <file>', 'also write the counts (with linked paths per host) as JSON')
    .option('--top <n>', 'hosts not served to list (default 30)', wholeNumber('top', 1))
    .addHelpText(
      'after',
      '\nExample:\n  npm run lab -- docweb links --cache /work/cache/docweb --out links.json --top 50',
    )
    .action((flags: { cache?: string; out?: string; top?: number }) => {
      const db = new DocwebDb(flags.cache ?? defaultCacheDir());
      try {
        const counts = countLinkGraph(db, { log: (line) => process.stderr.write(`${line}\n`) });
        if (flags.out) writeLinkGraph(flags.out, counts);
        console.log(formatLinkGraph(counts, flags.top ?? 30).join('\n'));
      } finally {
        db.close();
      }
    });

  docweb
    .command('grow')
    .description(
      'close the link graph: add the packages whose HTML the most-linked missing hosts point at, rebuild, count again',
    )
    .option('--cache <dir>', CACHE_HELP)
    .option('--manifest <file>', 'manifest to extend in place (default data/docweb/sites.json)')
    .option('--topics <dir>', 'topic files used to label pages (default data/topics)')
    .option(
      '--budget-gb <gb>',
      'most GB of debs to download over all rounds (default 4)',
      positive('budget-gb'),
    )
    .option('--rounds <n>', 'count-plan-build rounds (default 1)', wholeNumber('rounds', 1))
    .option(
      '--min-paths <n>',
      'least linked pages a package must serve (default 3)',
      wholeNumber('min-paths', 1),
    )
    .option(
      '--max-site-pages <n>',
      'largest site added, in pages (default 9000)',
      wholeNumber('max-site-pages', 1),
    )
    .option('--dry-run', 'print the plan, change nothing')
    .addHelpText(
      'after',
      '\nNeeds apt Contents indexes (apt-get install apt-file && apt-file update).\n' +
        'Examples:\n' +
        '  npm run lab -- docweb grow --cache /work/cache/docweb --dry-run\n' +
        '  npm run lab -- docweb grow --cache /work/cache/docweb --budget-gb 4 --rounds 2',
    )
    .action(
      async (flags: {
        cache?: string;
        manifest?: string;
        topics?: string;
        budgetGb?: number;
        rounds?: number;
        minPaths?: number;
        maxSitePages?: number;
        dryRun?: boolean;
      }) => {
        const report = await growDocweb({
          ...(flags.cache ? { cacheDir: flags.cache } : {}),
          ...(flags.manifest ? { manifestPath: flags.manifest } : {}),
          ...(flags.topics ? { topicsDir: flags.topics } : {}),
          ...(flags.budgetGb ? { budgetBytes: flags.budgetGb * 1e9 } : {}),
          ...(flags.rounds ? { rounds: flags.rounds } : {}),
          ...(flags.minPaths ? { minPaths: flags.minPaths } : {}),
          ...(flags.maxSitePages ? { maxSitePages: flags.maxSitePages } : {}),
          isDryRun: Boolean(flags.dryRun),
        });
        for (const [i, r] of report.rounds.entries()) {
          const share = (100 * r.before.crossHostResolvedShare).toFixed(1);
          console.log(
            `round ${i + 1}: ${r.before.pages} pages, ${share}% of cross-host links resolved; ` +
              `${r.plan.chosen.length} packages added (${(r.plan.plannedBytes / 1e6).toFixed(1)} MB)`,
          );
          for (const c of r.plan.chosen) console.log(`  + ${describeCandidate(c)}`);
        }
        if (report.after)
          console.log(
            `after: ${report.after.pages} pages, ${(100 * report.after.crossHostResolvedShare).toFixed(1)}% of ` +
              `${report.after.crossHost} cross-host links resolve`,
          );
      },
    );

  docweb
    .command('serve')
    .description('serve a built DocWeb on 127.0.0.1 (sites by Host header); Ctrl-C stops')
    .option('--cache <dir>', CACHE_HELP)
    .option('--port <n>', 'TCP port (default 0: any free port)', wholeNumber('port', 0))
    .addHelpText('after', '\nExample:\n  npm run lab -- docweb serve --cache /work/cache/docweb --port 8080')
    .action(async (flags: { cache?: string; port?: number }) => {
      const server = await startDocweb({ cacheDir: flags.cache, port: flags.port ?? 0 });
      console.log(
        [
          `DocWeb: ${server.siteCount} sites, ${server.pageCount} pages on http://127.0.0.1:${server.port}`,
          `crawl it with: tres crawl ${server.crawlFlags.map((f) => (f.includes('*') ? `'${f}'` : f)).join(' ')} ...`,
          `try: curl -H 'Host: docs.kernel.org' http://127.0.0.1:${server.port}/hwmon/index.html`,
        ].join('\n'),
      );
      await new Promise<void>((resolveStop) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void server.close().then(resolveStop);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });

  docweb
    .command('topic')
    .description(
      'what a topic file labels relevant in the DocWeb (per site and rule) and whether its seeds link to each other',
    )
    .requiredOption('--topic <file>', 'topic file (YAML), e.g. data/topics/hardware.yaml')
    .option('--cache <dir>', CACHE_HELP)
    .addHelpText(
      'after',
      '\nExample:\n  npm run lab -- docweb topic --topic data/topics/hardware.yaml --cache /work/cache/docweb',
    )
    .action((flags: { topic: string; cache?: string }) => {
      const topic = loadTopic(flags.topic, readHubIndex(flags.cache ?? defaultCacheDir()));
      const db = new DocwebDb(flags.cache ?? defaultCacheDir());
      try {
        const report = topicReport(db, topic);
        console.log(formatTopicReport(report).join('\n'));
        if (!report.seeds.isIndependent) process.exitCode = 1;
      } finally {
        db.close();
      }
    });

  docweb
    .command('sample')
    .description('write training data for a topic: relevant pages and ~RATIO times as many irrelevant ones')
    .requiredOption('--topic <file>', 'topic file (YAML)')
    .requiredOption('--out <dir>', 'output folder (relevant/, irrelevant/, manifest.tsv, keywords.txt)')
    .option('--cache <dir>', CACHE_HELP)
    .option(
      '--relevant <n>',
      `relevant pages wanted (default ${SAMPLE_DEFAULTS.relevant})`,
      wholeNumber('relevant', 1),
    )
    .option(
      '--ratio <r>',
      `irrelevant pages per relevant page (default ${SAMPLE_DEFAULTS.ratio})`,
      positive('ratio'),
    )
    .option('--seed <s>', `seed of the draw (default ${SAMPLE_DEFAULTS.seed})`)
    .addOption(
      new Option(
        '--from <where>',
        `irrelevant pages from all sites, or only other-sites (those without relevant pages) (default ${SAMPLE_DEFAULTS.irrelevantFrom})`,
      ).choices(['all', 'other-sites']),
    )
    .addOption(
      new Option(
        '--draw <how>',
        `by-page: every page equally likely, as a crawl meets them; by-site: round-robin over sites; mixed: half each (default ${SAMPLE_DEFAULTS.draw})`,
      ).choices([...SAMPLE_DRAWS]),
    )
    .option(
      '--max-site-share <f>',
      `with --draw by-page or mixed, the largest share of a draw one site may give (default ${SAMPLE_DEFAULTS.maxSiteShare})`,
      positive('max-site-share'),
    )
    .option('--force', 'replace an existing sample in --out')
    .addHelpText(
      'after',
      '\nExample:\n  npm run lab -- docweb sample --topic data/topics/statistics.yaml --out /tmp/stats-sample --relevant 500\n' +
        'Then: tres train --relevant OUT/relevant --irrelevant OUT/irrelevant --keywords OUT/keywords.txt ...',
    )
    .action(
      (flags: {
        topic: string;
        out: string;
        cache?: string;
        relevant?: number;
        ratio?: number;
        seed?: string;
        from?: string;
        draw?: string;
        maxSiteShare?: number;
        force?: boolean;
      }) => {
        const report = sampleTrainingData({
          topic: loadTopic(flags.topic, readHubIndex(flags.cache ?? defaultCacheDir())),
          outDir: flags.out,
          cacheDir: flags.cache,
          ...(flags.relevant === undefined ? {} : { relevant: flags.relevant }),
          ...(flags.ratio === undefined ? {} : { ratio: flags.ratio }),
          ...(flags.seed === undefined ? {} : { seed: flags.seed }),
          ...(flags.from === undefined ? {} : { irrelevantFrom: flags.from as 'other-sites' | 'all' }),
          ...(flags.draw === undefined ? {} : { draw: flags.draw as SampleDraw }),
          ...(flags.maxSiteShare === undefined ? {} : { maxSiteShare: flags.maxSiteShare }),
          shouldOverwrite: Boolean(flags.force),
        });
        console.log(
          `wrote ${report.relevant} relevant pages (from ${report.relevantSites} sites, ${report.relevantAvailable} labelled) ` +
            `and ${report.irrelevant} irrelevant pages (from ${report.irrelevantSites} sites, pool ${report.irrelevantAvailable}) ` +
            `to ${report.outDir}; ${report.passedOver} drawn pages passed over (too short or not English)`,
        );
      },
    );
}

/** Lines printed at the end of `npm run lab -- docweb build`. */
export function formatBuildSummary(s: DocwebBuildSummary): string[] {
  const f = s.fetch;
  const lines = [
    `DocWeb built in ${(s.elapsedMs / 1000).toFixed(1)} s: ${s.cacheDir}`,
    `  packages   ${f.downloaded} downloaded (${(f.downloadBytes / 1e6).toFixed(1)} MB), ${f.extracted} extracted, ${f.alreadyExtracted} already there`,
    `  sites      ${s.counts.sites}`,
    `  pages      ${s.counts.pages} (${s.counts.excludedPages} more in excluded giant trees)`,
    ...Object.entries(s.counts.labelled).map(([topic, n]) => `  relevant   ${n} pages for topic ${topic}`),
    `  tables     ${s.dbPath}${s.isIndexReused ? ' (unchanged)' : ''}`,
  ];
  if (s.missingRoots.length > 0)
    lines.push(
      `  WARNING    no site folder in ${s.missingRoots.join(', ')}: fix rootInPackage in the manifest`,
    );
  return lines;
}
