/**
 * `tres repair DIR`: rebuilds a damaged crawl.sqlite ("database disk image is malformed", a file
 * cut short) from pages.jsonl and pages.warc.gz, keeping the damaged file aside, so that
 * `tres crawl --resume DIR` works again (store/rebuild-store.ts).
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError } from '../../common/index.js';
import {
  type CrawlerOptions as CrawlLoopOptions,
  createPageRereader,
  type PageJudge,
} from '../../crawl/index.js';
import { type CrawlerOptions, crawlStrategy } from '../../index.js';
import { indexOutlinks, type RebuildResult, rebuildStore } from '../../store/index.js';

const EXAMPLES = `
Examples:
  tres repair crawl1                  # rebuild crawl1/crawl.sqlite if it is damaged
  tres crawl --resume crawl1          # then go on crawling

The damaged file is kept as crawl.sqlite.damaged-<time> beside the new one; pages.jsonl and
pages.warc.gz are read, never changed. Rows the damaged file still holds are kept whole (with the
strategy's checkpoint, seeds and configuration); the others are rebuilt, their outlinks read
again from the stored responses. Exit codes: 0 repaired or nothing to repair, 66 no pages.jsonl,
65 pages.jsonl or pages.warc.gz damaged before its end (nothing changed), 2 bad use.`;

export function registerRepairCommand(program: Command): void {
  program
    .command('repair')
    .description(
      'rebuild a damaged crawl.sqlite from pages.jsonl and pages.warc.gz (the damaged file is kept aside)',
    )
    .argument('<dir>', 'crawl folder (written by tres crawl)')
    .option('--force', 'rebuild even a crawl.sqlite that reads back whole (default: leave it)')
    .addHelpText('after', EXAMPLES)
    .action(async (dir: string, flags: { force?: boolean }) => {
      if (!existsSync(dir)) {
        throw new ConfigError(`${dir}: no such folder; give the folder of a crawl (its --out)`, {
          context: { file: dir },
        });
      }
      const result = await rebuildStore(dir, {
        isForced: Boolean(flags.force),
        rereaderFor: async (config) =>
          config ? createPageRereader(storedOptions(dir, config), judgeLoader(config)) : undefined,
      });
      for (const line of report(dir, result)) console.error(line);
      if (result.status === 'rebuilt') {
        try {
          indexOutlinks(dir);
        } catch (error) {
          console.error(`tres: warning: outlinks not indexed for SQL (${(error as Error).message})`);
        }
      }
    });
}

/** The crawl's options from its stored config, as `--resume` reads them (crawl-plan.ts). */
function storedOptions(dir: string, config: Record<string, unknown>): CrawlLoopOptions {
  const { judge: _j, outDir: _o, isResume: _r, ...rest } = config;
  const o = { ...rest, outDir: dir, isResume: true } as CrawlerOptions;
  // The stored spec becomes the strategy as `tres crawl` makes it (the crawl loop takes objects).
  return { ...o, strategy: crawlStrategy(o) };
}

/** Loads the crawl's model judge when its folder is still there (for anchor scores). */
function judgeLoader(config: Record<string, unknown>): (() => Promise<PageJudge>) | undefined {
  const source = config.judgeSource;
  if (typeof source !== 'string' || !existsSync(source)) return undefined;
  return async () => {
    const { loadModel } = await import('../../relevance/index.js');
    return loadModel(source);
  };
}

function report(dir: string, r: RebuildResult): string[] {
  const n = (value: number) => value.toLocaleString('en-US');
  if (r.status === 'healthy') {
    return [
      `${dir}/crawl.sqlite reads back whole (${n(r.pages)} pages): nothing to repair; --force rebuilds it anyway`,
    ];
  }
  const lines = [
    r.keptAs === undefined
      ? `${dir}/crawl.sqlite was missing`
      : r.damage === undefined
        ? `${dir}/crawl.sqlite read back whole and was rebuilt as asked (--force); kept as ${r.keptAs}`
        : `${dir}/crawl.sqlite was damaged (${r.damage}); kept as ${r.keptAs}`,
    `rebuilt ${dir}/crawl.sqlite: ${n(r.pages)} pages (${n(r.salvagedRows)} rows read back from the old file, ${n(r.rebuiltRows)} rebuilt from pages.jsonl and pages.warc.gz, ${n(r.rereadRows)} of them with their outlinks read again)`,
    `  seeds ${n(r.seeds)} (${r.seedsFrom === 'store' ? 'kept' : 'lost: the fetched seeds taken from the pages'}), configuration ${r.configFrom === 'warc' ? 'taken from the WARC (as the crawl started)' : r.hasConfig ? 'kept' : 'lost'}, strategy checkpoint ${r.checkpointAfterPage === undefined ? 'lost or none: a resume learns again from the pages' : `kept (after page ${n(r.checkpointAfterPage)})`}, labels ${n(r.labels)}`,
  ];
  if (r.tornBytes.jsonl > 0 || r.tornBytes.warc > 0) {
    lines.push(
      `  a torn tail (${n(r.tornBytes.jsonl)} bytes of pages.jsonl, ${n(r.tornBytes.warc)} of pages.warc.gz) belongs to no page; the resume cuts it off`,
    );
  }
  lines.push(
    r.hasConfig
      ? `next: tres crawl --resume ${dir}`
      : `next: the crawl's configuration was lost with the old file, so --resume cannot continue it; tres export ${dir} reads the pages, or start a new crawl with --out`,
  );
  return lines;
}
