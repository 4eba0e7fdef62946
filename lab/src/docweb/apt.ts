/**
 * The few apt and dpkg commands the DocWeb build runs: `apt-get download --print-uris` (what will
 * be downloaded and how big), `apt-get update` (fresh machines have no package lists),
 * `apt-get download` (no installation, no dependencies) and `dpkg-deb -x` (no maintainer scripts,
 * no triggers). Every command goes through a {@link CommandRunner} so tests can fake them.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { ConfigError, TresError } from 'tres-crawler';

/** What a finished command gave back. */
export interface CommandResult {
  /** Exit code (-1 if killed by a signal). */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without a shell; never rejects for a non-zero exit code (check `code`). */
export type CommandRunner = (
  command: string,
  args: string[],
  options?: { cwd?: string },
) => Promise<CommandResult>;

/**
 * The real runner: `child_process.spawn` without a shell, output collected (apt and dpkg print
 * little).
 */
export const runCommand: CommandRunner = (command, args, options = {}) =>
  new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (error) =>
      reject(
        new TresError(
          'TRES_DOCWEB_COMMAND',
          `cannot run ${command}: ${error.message} (is it a Debian system?)`,
          {
            cause: error,
          },
        ),
      ),
    );
    child.on('close', (code) =>
      resolveRun({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });

/** One package as apt would download it. */
export interface DebDownload {
  package: string;
  /** File name apt-get download writes, e.g. `avr-libc_1%3a2.0.0+Atmel3.6.2-3_all.deb`. */
  fileName: string;
  /** Size in bytes, from the package lists. */
  sizeBytes: number;
  uri: string;
}

/** The apt lists folder holds `*_Packages*` files (false on a fresh machine or container). */
export function hasPackageLists(listsDir = '/var/lib/apt/lists'): boolean {
  try {
    return readdirSync(listsDir).some((name) => name.includes('_Packages'));
  } catch {
    return false;
  }
}

/**
 * Parses `apt-get download --print-uris` lines: `'URI' FILE SIZE HASH`. Each file is matched to
 * its package by the `package_` prefix of the file name.
 */
export function parsePrintUris(stdout: string, packages: readonly string[]): Map<string, DebDownload> {
  const byPackage = new Map<string, DebDownload>();
  for (const line of stdout.split('\n')) {
    const m = /^'([^']+)'\s+(\S+)\s+(\d+)/.exec(line.trim());
    if (!m) continue;
    const [, uri, fileName, size] = m as unknown as [string, string, string, string];
    const pkg = packages.find((p) => fileName.startsWith(`${p}_`));
    if (pkg) byPackage.set(pkg, { package: pkg, fileName, sizeBytes: Number(size), uri });
  }
  return byPackage;
}

/**
 * What apt will download for these packages. Runs `apt-get update` first when the package lists
 * are missing, and once more if apt cannot locate a package.
 * @throws ConfigError naming the packages apt does not know (wrong name or distribution).
 */
export async function planDownloads(
  packages: readonly string[],
  run: CommandRunner = runCommand,
  log: (line: string) => void = () => {},
  listsDir?: string,
): Promise<DebDownload[]> {
  const update = async () => {
    log('apt-get update (package lists missing or stale) ...');
    const r = await run('apt-get', ['update']);
    if (r.code !== 0)
      throw new TresError(
        'TRES_DOCWEB_APT',
        `apt-get update failed (exit ${r.code}): ${lastLines(r.stderr)}`,
      );
  };
  if (!hasPackageLists(listsDir)) await update();
  let isUpdated = false;
  for (;;) {
    const r = await run('apt-get', ['download', '--print-uris', ...packages]);
    const plan = parsePrintUris(r.stdout, packages);
    const missing = packages.filter((p) => !plan.has(p));
    if (r.code === 0 && missing.length === 0) return packages.map((p) => plan.get(p) as DebDownload);
    if (isUpdated) {
      throw new ConfigError(
        `apt does not know ${missing.length > 0 ? missing.join(', ') : 'some packages'}: ${lastLines(r.stderr)} ` +
          '(check the package names in the DocWeb manifest and that /etc/apt/sources.list holds Debian bookworm main)',
        { context: { field: 'sites[].package' } },
      );
    }
    await update();
    isUpdated = true;
  }
}

/**
 * `apt-get download PACKAGE` into `debsDir`.
 * @throws TresError (code TRES_DOCWEB_APT) with apt's last error lines if it fails.
 */
export async function downloadDeb(
  pkg: string,
  debsDir: string,
  run: CommandRunner = runCommand,
): Promise<void> {
  const r = await run('apt-get', ['download', pkg], { cwd: debsDir });
  if (r.code !== 0)
    throw new TresError(
      'TRES_DOCWEB_APT',
      `apt-get download ${pkg} failed (exit ${r.code}): ${lastLines(r.stderr)}`,
    );
}

/**
 * `dpkg-deb -x DEB DEST`: unpacks the files only (no scripts, no dependencies).
 * @throws TresError (code TRES_DOCWEB_DPKG) if dpkg-deb fails.
 */
export async function extractDeb(
  debPath: string,
  destDir: string,
  run: CommandRunner = runCommand,
): Promise<void> {
  const r = await run('dpkg-deb', ['-x', debPath, destDir]);
  if (r.code !== 0)
    throw new TresError(
      'TRES_DOCWEB_DPKG',
      `dpkg-deb -x ${debPath} failed (exit ${r.code}): ${lastLines(r.stderr)}`,
    );
}

function lastLines(text: string, n = 3): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('W: Download is performed unsandboxed'));
  return lines.slice(-n).join(' | ') || '(no message)';
}
