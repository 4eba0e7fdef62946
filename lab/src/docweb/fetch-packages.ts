/**
 * Steps 1 and 2 of a DocWeb build: download the packages (`apt-get download`) and extract them
 * (`dpkg-deb -x`), each only if not done yet. A package counts as extracted when its marker file
 * exists; extraction goes to `<package>.partial` and is renamed when complete, so an interrupted
 * build resumes where it stopped. Packages are downloaded several to one `apt-get download` call
 * (each call costs about 5 s of apt start-up, more than most documentation debs take to
 * transfer); extraction of one batch overlaps the download of the next.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, TresError } from 'tres-crawler';
import {
  type CommandRunner,
  type DebDownload,
  downloadDeb,
  extractDeb,
  planDownloads,
  runCommand,
} from './apt.js';
import { type CacheLayout, EXTRACTED_MARKER, packageDir } from './cache-layout.js';
import { sanitizeLinks } from './sanitize-links.js';

/** Options of {@link fetchPackages}. */
export interface FetchPackagesOptions {
  /** Where debs and extracted folders go. */
  layout: CacheLayout;
  /** Packages to have extracted. */
  packages: readonly string[];
  /** Runs apt-get and dpkg-deb. @default runCommand (the real commands) */
  run?: CommandRunner;
  /** Progress lines. @default no output */
  log?: (line: string) => void;
  /** apt's lists folder, checked to decide whether `apt-get update` is needed. @default '/var/lib/apt/lists' */
  aptListsDir?: string;
  /** Monotonic milliseconds, for the timings in progress lines. @default performance.now */
  nowMs?: () => number;
  /**
   * Packages per `apt-get download` call. A batch that fails is retried one package at a time,
   * so one bad package names itself in the error. `1` downloads each package on its own.
   * @default DEFAULT_DOWNLOAD_BATCH_SIZE (20)
   */
  downloadBatchSize?: number;
}

/** Packages per `apt-get download` call unless {@link FetchPackagesOptions.downloadBatchSize} says otherwise. */
export const DEFAULT_DOWNLOAD_BATCH_SIZE = 20;

/** What {@link fetchPackages} did. */
export interface FetchReport {
  /** Packages already extracted before this run (skipped without asking apt). */
  alreadyExtracted: number;
  /** Bytes of the packages that had to be downloaded in this run. */
  downloadBytes: number;
  /** Packages downloaded in this run. */
  downloaded: number;
  /** Packages extracted in this run. */
  extracted: number;
  /** Time spent, in milliseconds. */
  elapsedMs: number;
}

/** True if the package's extraction finished (marker present). */
export function isExtracted(layout: CacheLayout, pkg: string): boolean {
  return existsSync(join(packageDir(layout, pkg), EXTRACTED_MARKER));
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function hasDeb(layout: CacheLayout, deb: DebDownload): boolean {
  try {
    return statSync(join(layout.debsDir, deb.fileName)).size === deb.sizeBytes;
  } catch {
    return false;
  }
}

/**
 * Downloads and extracts every package not extracted yet, printing progress.
 * @throws ConfigError if apt does not know a package; TresError if apt-get or dpkg-deb fail
 *   (packages finished before the failure stay done).
 */
export async function fetchPackages(options: FetchPackagesOptions): Promise<FetchReport> {
  const { layout } = options;
  const run = options.run ?? runCommand;
  const log = options.log ?? (() => {});
  const nowMs = options.nowMs ?? (() => performance.now());
  const start = nowMs();
  mkdirSync(layout.debsDir, { recursive: true });
  mkdirSync(layout.extractDir, { recursive: true });
  const pending = options.packages.filter((p) => !isExtracted(layout, p));
  const report: FetchReport = {
    alreadyExtracted: options.packages.length - pending.length,
    downloadBytes: 0,
    downloaded: 0,
    extracted: 0,
    elapsedMs: 0,
  };
  if (pending.length === 0) {
    log(`packages: all ${options.packages.length} already extracted in ${layout.extractDir}`);
    report.elapsedMs = nowMs() - start;
    return report;
  }
  const plan = await planDownloads(pending, run, log, options.aptListsDir);
  const toDownload = plan.filter((d) => !hasDeb(layout, d));
  report.downloadBytes = toDownload.reduce((sum, d) => sum + d.sizeBytes, 0);
  const planBytes = plan.reduce((sum, d) => sum + d.sizeBytes, 0);
  log(
    `packages: ${options.packages.length} in the manifest, ${report.alreadyExtracted} already extracted; ` +
      `will download ${mb(report.downloadBytes)} (${toDownload.length} package${toDownload.length === 1 ? '' : 's'}; ` +
      `${plan.length - toDownload.length} already in ${layout.debsDir}) and extract ${plan.length} ` +
      `(${mb(planBytes)} of debs)`,
  );

  const batchSize = options.downloadBatchSize ?? DEFAULT_DOWNLOAD_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new ConfigError(`downloadBatchSize must be a whole number >= 1, got ${batchSize}`, {
      context: { field: 'downloadBatchSize' },
    });
  let firstError: unknown;
  let extractChain: Promise<void> = Promise.resolve();
  let fetchedBytes = 0;
  const queueExtract = (deb: DebDownload, tag: string) => {
    extractChain = extractChain
      .then(async () => {
        if (firstError !== undefined) return;
        const t0 = nowMs();
        const links = await extractOne(layout, deb, run);
        report.extracted++;
        log(
          `extract  ${tag} in ${((nowMs() - t0) / 1000).toFixed(1)} s` +
            (links.rerooted + links.removed > 0
              ? ` (symlinks: ${links.rerooted} kept inside, ${links.removed} leaving the package removed)`
              : ''),
        );
      })
      .catch((error: unknown) => {
        firstError ??= error;
      });
  };
  for (let start = 0; start < plan.length && firstError === undefined; start += batchSize) {
    const batch = plan.slice(start, start + batchSize);
    const missing = batch.filter((d) => !hasDeb(layout, d));
    const range = `[${start + 1}-${start + batch.length}/${plan.length}]`;
    const t0 = nowMs();
    let isBatchOk = true;
    if (missing.length > 0) {
      const names = missing.map((d) => d.package);
      const r = await run('apt-get', ['download', ...names], { cwd: layout.debsDir });
      isBatchOk = r.code === 0;
      if (!isBatchOk && missing.length > 1)
        log(
          `download ${range}: apt-get download of ${missing.length} packages failed (exit ${r.code}); one at a time`,
        );
    }
    const done: DebDownload[] = [];
    for (const planned of batch) {
      let deb = planned;
      if (missing.includes(planned)) {
        // A failed batch is redone package by package, so the failing one names itself.
        if (!isBatchOk && !hasDeb(layout, deb)) await downloadDeb(deb.package, layout.debsDir, run);
        if (!hasDeb(layout, deb)) {
          // Version drift: the archive published a new version (a security update) between the
          // plan and this download, so apt fetched another file. Ask apt again which is current.
          deb = await resolveAgain(deb, layout, run, log);
          report.downloadBytes += deb.sizeBytes - planned.sizeBytes;
        }
        fetchedBytes += deb.sizeBytes;
        report.downloaded++;
      }
      done.push(deb);
    }
    if (missing.length > 0) {
      const batchBytes = done.filter((_, i) => missing.includes(batch[i] as DebDownload));
      log(
        `download ${range} ${missing.length} package${missing.length === 1 ? '' : 's'}, ` +
          `${mb(batchBytes.reduce((sum, d) => sum + d.sizeBytes, 0))} in ${((nowMs() - t0) / 1000).toFixed(1)} s ` +
          `(${mb(fetchedBytes)} of ${mb(report.downloadBytes)})`,
      );
    }
    for (const [i, deb] of done.entries())
      queueExtract(deb, `[${start + i + 1}/${plan.length}] ${deb.package}`);
  }
  await extractChain;
  if (firstError !== undefined) throw firstError;
  report.elapsedMs = nowMs() - start;
  return report;
}

/**
 * The current file of a package whose planned version vanished from the archive: re-planned with
 * `apt-get download --print-uris` (and downloaded once more if apt did not leave it yet).
 * @throws TresError (code TRES_DOCWEB_APT) if even the re-resolved file is not there.
 */
async function resolveAgain(
  planned: DebDownload,
  layout: CacheLayout,
  run: CommandRunner,
  log: (line: string) => void,
): Promise<DebDownload> {
  const [current] = await planDownloads([planned.package], run, log);
  if (current && !hasDeb(layout, current)) await downloadDeb(current.package, layout.debsDir, run);
  if (!current || !hasDeb(layout, current))
    throw new TresError(
      'TRES_DOCWEB_APT',
      `apt-get download ${planned.package} did not leave ${planned.fileName} of ${planned.sizeBytes} bytes, ` +
        `nor the version apt names now (${current?.fileName ?? 'none'})`,
    );
  log(
    `download ${planned.package}: the archive moved from ${planned.fileName} to ${current.fileName} ` +
      'since the plan (version drift); going on with the new version',
  );
  return current;
}

async function extractOne(layout: CacheLayout, deb: DebDownload, run: CommandRunner) {
  const final = packageDir(layout, deb.package);
  const partial = `${final}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  await extractDeb(join(layout.debsDir, deb.fileName), partial, run);
  const links = await sanitizeLinks(partial);
  writeFileSync(join(partial, EXTRACTED_MARKER), `${deb.fileName}\n`);
  rmSync(final, { recursive: true, force: true });
  renameSync(partial, final);
  return links;
}
