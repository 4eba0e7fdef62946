/**
 * The README's commands work when pasted after the set-up. Every command of its `sh` blocks must
 * have an entry in CHECKS below (a new command without one fails this test), which says how it
 * is checked: run as written, in README order, in one fresh folder (`npx tres ...` runs in this
 * process, so the test pays the start-up once; the long DocWeb steps run the built command in a
 * child process), with a few flags added where the command would
 * reach the Internet or run long; served until its dashboard answers; run on a built DocWeb when
 * asked (TRES_README_DOCWEB=1, see below); or checked by hand for a stated reason. The README's crawls of
 * https://www.debian.org/ go to a small web served here on loopback under that name
 * (`--resolve`), whose pages speak of debian packages and link to further pages.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCacheDir } from '../lab/src/docweb/index.js';
import { runMain, TRES_BIN } from '../src/cli/test-cli.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * `npm run lab -- ARGS` as a child in the README's folder: the lab as `npm run lab` builds and
 * runs it (lab/dist/), built here once (scripts/build-lab.mjs) before the DocWeb steps.
 */
function labCommand(args: string): string {
  return `node '${join(ROOT, 'lab', 'dist', 'cli', 'lab.js')}' ${args}`;
}

/** Flags that send the README's crawls to the loopback web (PORT is filled in) and keep them fast. */
const LOOPBACK = `--resolve 'www.debian.org=127.0.0.1:PORT,*=none' --https-as-http --allow-loopback`;
const FAST = `${LOOPBACK} --min-delay-ms 0 --quiet`;

/** How one README command is checked. */
type Check =
  | { how: 'run'; append?: string; exitCode: number; creates?: string }
  | { how: 'serve'; append: string; exitCode: number }
  | { how: 'docweb'; append?: string; exitCode: number; creates?: string }
  | { how: 'by hand'; reason: string };

/** Every command of the README, exactly as written there (continuations joined, comments cut). */
const CHECKS: Record<string, Check> = {
  'npm install': { how: 'by hand', reason: 'the set-up itself; this test runs after it' },
  'npx tres demo': { how: 'run', append: '--pages 30 --strategies tres', exitCode: 0 },
  "mkdir -p crawls && printf 'https://www.debian.org/doc/\\n' > crawls/seeds.txt": {
    how: 'run',
    exitCode: 0,
    creates: 'crawls/seeds.txt',
  },
  'npx tres crawl --seeds crawls/seeds.txt --out crawls/crawl1 --keywords debian,package,install --max-pages 200':
    {
      how: 'run',
      append: FAST,
      exitCode: 0,
      creates: 'crawls/crawl1/pages.warc.gz',
    },
  'npx tres crawl --resume crawls/crawl1 --max-pages 300': { how: 'run', append: FAST, exitCode: 0 },
  'npx tres export crawls/crawl1 --relevant-only --out crawls/relevant.csv': {
    how: 'run',
    exitCode: 0,
    creates: 'crawls/relevant.csv',
  },
  'npx tres crawl --seeds crawls/seeds.txt --out crawls/crawl2 --keywords debian,package,install --ui': {
    how: 'serve',
    append: `${LOOPBACK} --quiet --ui-port UI_PORT`,
    exitCode: 130,
  },
  'npx tres ui crawls/crawl1': { how: 'serve', append: '--ui-port UI_PORT', exitCode: 0 },
  'npm run lab -- docweb build': {
    how: 'by hand',
    reason: 'downloads 1.2 GB of Debian packages; a built DocWeb found on this machine stands in for it',
  },
  'npm run lab -- docweb sample --topic data/topics/hardware.yaml --out crawls/sample1 --relevant 100': {
    how: 'docweb',
    exitCode: 0,
    creates: 'crawls/sample1/keywords.txt',
  },
  'npx tres train --relevant crawls/sample1/relevant --irrelevant crawls/sample1/irrelevant --out crawls/model1':
    {
      how: 'docweb',
      exitCode: 0,
      creates: 'crawls/model1/model.json',
    },
  'npx tres evaluate --relevant crawls/sample1/relevant --irrelevant crawls/sample1/irrelevant --models svm,nb --folds 3':
    {
      how: 'docweb',
      exitCode: 0,
    },
  'npx tres crawl --seeds crawls/seeds.txt --out crawls/crawl3 --model crawls/model1 --max-pages 200': {
    how: 'docweb',
    append: FAST,
    exitCode: 0,
    creates: 'crawls/crawl3/crawl.sqlite',
  },
  'npm install ../tres': {
    how: 'by hand',
    reason: 'the path of the clone in your own project; docs/library.md has an example to run',
  },
  'npm test': { how: 'by hand', reason: 'runs this test' },
  'npm run typecheck': { how: 'by hand', reason: 'CI runs it (.ci/run)' },
  'npm run lint': { how: 'by hand', reason: 'CI runs it (.ci/run)' },
  'redis-server --port 6379 --requirepass s3cret': {
    how: 'by hand',
    reason:
      'needs a redis-server and worker machines; src/cluster/cluster-kill.test.ts runs the same coordinator and workers against a redis-server it starts',
  },
  'export TRES_REDIS_URL=redis://:s3cret@HOST:6379': {
    how: 'by hand',
    reason:
      'needs a redis-server and worker machines; src/cluster/cluster-start.test.ts starts a coordinator and a worker with TRES_REDIS_URL against a redis-server it starts',
  },
  'npx tres crawl --seeds crawls/seeds.txt --out crawls/crawl4 --keywords debian,package --cluster': {
    how: 'by hand',
    reason:
      'needs a redis-server and worker machines; src/cluster/cluster-start.test.ts runs the same coordinator and workers against a redis-server it starts',
  },
  'npx tres worker --cluster --warc-dir /shared/warc': {
    how: 'by hand',
    reason:
      'needs a redis-server and worker machines; src/cluster/cluster-start.test.ts runs the same coordinator and workers against a redis-server it starts',
  },
};

/** The commands of the README's `sh` blocks: continuation lines joined, trailing comments cut. */
function readmeCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const text = (block[1] ?? '').replace(/\\\n\s*/g, '');
    for (const line of text.split('\n')) {
      const command = line.replace(/\s{2,}#.*$/, '').trim();
      if (command !== '' && !command.startsWith('#')) commands.push(command);
    }
  }
  return commands;
}

/** Splits a command line into words as sh does for these commands (blanks; '...' and "..." kept whole). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/** A small web under www.debian.org: every page speaks of debian packages and links to 5 more. */
function startDebianLookalike(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    const n = Number(/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    const links = [1, 2, 3, 4, 5].map(
      (i) => `<a href="/doc/page-${n * 5 + i}">debian package ${n * 5 + i}</a>`,
    );
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Debian documentation ${n}</title></head><body>` +
        `<p>How to install a debian package with apt: install, package, debian.</p>${links.join(' ')}</body></html>`,
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs a shell line in the README's folder; resolves to its exit code and output. */
function runChild(line: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd: workDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a dashboard command in this process, asks its API for the status, then sends Ctrl-C. */
async function serveAndStop(args: string[], uiPort: number): Promise<{ status: number; code: number }> {
  const running = runMain(args);
  let status = 0;
  for (let attempt = 0; attempt < 600 && status === 0; attempt++) {
    await new Promise((r) => setTimeout(r, 100));
    status = await fetch(`http://127.0.0.1:${uiPort}/api/status`).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status;
      },
      () => 0,
    );
  }
  process.emit('SIGINT');
  const { code } = await running;
  return { status, code };
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const commands = readmeCommands(readme);
const workDir = mkdtempSync(join(tmpdir(), 'tres-readme-'));
const savedCwd = process.cwd();
// The README runs in the repository's folder (it names data/topics/...): link what it reads.
symlinkSync(join(ROOT, 'data'), join(workDir, 'data'));
const docwebCache = defaultCacheDir();
// The DocWeb steps take minutes (sampling, training, cross-validation): only on request,
// `TRES_README_DOCWEB=1 npx vitest run test/readme.test.ts`, with a built DocWeb in its default
// cache, where the README's commands read it.
const hasDocweb = process.env.TRES_README_DOCWEB === '1' && existsSync(join(docwebCache, 'docweb.sqlite'));
let web: Server;

beforeAll(async () => {
  web = await startDebianLookalike();
  process.chdir(workDir);
  if (hasDocweb) {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-lab.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
}, 600_000);

afterAll(async () => {
  process.chdir(savedCwd);
  await new Promise((resolve) => web.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

describe('README', () => {
  it('has a check for every command it shows, and no check for a command it no longer shows', () => {
    expect(commands.filter((c) => !(c in CHECKS))).toEqual([]);
    expect(Object.keys(CHECKS).filter((c) => !commands.includes(c))).toEqual([]);
  });

  it('imports in its library example only what the package exports', async () => {
    const library = await import('../src/index.js');
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const names = /import \{([^}]*)\} from 'tres-crawler'/.exec(snippet)?.[1]?.split(',') ?? [];
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(library).toHaveProperty(name.trim());
  });

  // In README order, in one folder: later commands use what earlier ones made (crawls/seeds.txt, crawls/crawl1).
  for (const command of commands) {
    const check = CHECKS[command];
    if (!check || check.how === 'by hand') continue;
    it.skipIf(check.how === 'docweb' && !hasDocweb)(`runs: ${command}`, { timeout: 120_000 }, async () => {
      const port = String((web.address() as AddressInfo).port);
      const line = `${command} ${check.append ?? ''}`.replace(/\bPORT\b/, port);
      if (!command.startsWith('npx tres ') && check.how !== 'docweb') {
        execFileSync('bash', ['-c', line], { cwd: workDir });
      } else if (check.how === 'serve') {
        const uiPort = await freePort();
        const args = shellWords(line.replace('UI_PORT', String(uiPort))).slice(2);
        const { status, code } = await serveAndStop(args, uiPort);
        expect(status).toBe(200);
        expect(code).toBe(check.exitCode);
      } else if (check.how === 'docweb') {
        // Long and CPU-bound: in a child process (the built command), so this worker stays responsive.
        const child = command.startsWith('npm run lab -- ')
          ? labCommand(line.slice('npm run lab -- '.length))
          : `node '${TRES_BIN}' ${line.slice('npx tres '.length)}`;
        const { code, output } = await runChild(child);
        expect(code, output).toBe(check.exitCode);
      } else {
        const { code, stdout, stderr } = await runMain(shellWords(line).slice(2));
        expect(code, `${stdout}\n${stderr}`).toBe(check.exitCode);
      }
      if ('creates' in check && check.creates) {
        const made = join(workDir, check.creates);
        expect(existsSync(made)).toBe(true);
        // An exported table holds pages, not just its header.
        if (made.endsWith('.csv'))
          expect(readFileSync(made, 'utf8').trim().split('\n').length).toBeGreaterThan(1);
      }
    });
  }
});
