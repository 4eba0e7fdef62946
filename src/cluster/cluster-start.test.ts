/**
 * Starting a cluster crawl as an operator does, with the built `tres` command and a real
 * redis-server that wants a password: the password never on a command line (TRES_REDIS_URL,
 * --cluster-password-file; /proc/PID/cmdline of a running coordinator and worker shows none, nor
 * do their output, the store or the JSON lines); a wrong password, an unreachable Redis and a
 * database Redis does not have each say so, with an exit code of their own, and leave no crawl
 * folder, so the same command runs again; the cluster options come from a --config file as well;
 * a second coordinator of the same crawl name is refused
 * and leaves the first's keys alone; a worker of another tres version is refused; Ctrl-C stops a
 * coordinator whose Redis is gone.
 */
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalRedis, type LoggedWeb, startLocalRedis, startLoggedWeb } from 'tres-testing';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runMain, spawnCli } from '../cli/test-cli.js';
import { keywordsOf } from '../sandbox/index.js';
import { ClusterKeys } from './cluster-options.js';
import { connectRedis } from './redis-connection.js';

const TOPIC = 'computer hardware';
const PASSWORD = 'pw-Zq81xv';
const BUDGET = 40;

describe('starting a cluster crawl', () => {
  let redis: LocalRedis;
  let site: LoggedWeb;
  const base = tempDir('tres-cluster-start-');
  let seedsFile: string;
  let passwordFile: string;
  /** The URL without the password, as it may be typed. */
  let bareUrl: string;
  beforeAll(async () => {
    [redis, site] = await Promise.all([
      startLocalRedis({ password: PASSWORD }),
      startLoggedWeb({
        seed: 9,
        hostCount: 40,
        pageCount: 8000,
        topics: [TOPIC, 'cooking recipes'],
        relevantTopic: TOPIC,
        delayMs: [20, 60],
      }),
    ]);
    seedsFile = join(base, 'seeds.txt');
    writeFileSync(seedsFile, `${site.web.seedUrls(3, { relevant: true }).join('\n')}\n`);
    passwordFile = join(base, 'redis-password');
    writeFileSync(passwordFile, `${PASSWORD}\n`);
    bareUrl = `redis://127.0.0.1:${redis.port}`;
  });
  afterAll(async () => {
    await Promise.all([redis?.stop(), site?.close()]);
  });

  const crawlArgs = (out: string, name: string, cluster: string[], budget = BUDGET) => [
    'crawl',
    '--seeds',
    seedsFile,
    '--out',
    out,
    '--keywords',
    keywordsOf(TOPIC).join(','),
    '--strategy',
    'best-first',
    '--max-pages',
    String(budget),
    '--concurrency',
    '4',
    '--min-delay-ms',
    '200',
    '--allow-loopback',
    '--resolve',
    site.resolveRules.join(','),
    ...cluster,
    '--cluster-name',
    name,
    '--cluster-shards',
    '8',
    '--quiet',
  ];
  const output = (child: ReturnType<typeof spawnCli>) => {
    let text = '';
    child.stdout?.on('data', (d) => {
      text += d;
    });
    child.stderr?.on('data', (d) => {
      text += d;
    });
    return () => text;
  };
  /** `tres ARGS` in this process (no start-up cost) with `env` added to the environment. */
  async function runWith(args: string[], env: Record<string, string>) {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      return await runMain(args);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }
  const cmdline = (pid: number | undefined) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

  it('takes the password from TRES_REDIS_URL or a file, and shows it nowhere: not in /proc/PID/cmdline, the output, the store', async () => {
    const name = 'secret';
    const out = join(base, name);
    const worker = spawnCli([
      'worker',
      '--cluster',
      bareUrl,
      '--cluster-password-file',
      passwordFile,
      '--cluster-name',
      name,
      '--id',
      'w1',
      '--warc-dir',
      join(base, `${name}-warc`),
    ]);
    const workerOut = output(worker);
    const coordinator = spawnCli(crawlArgs(out, name, ['--cluster']), { TRES_REDIS_URL: redis.url });
    const coordinatorOut = output(coordinator);
    const closed = once(coordinator, 'close') as Promise<[number | null]>;
    // Both run (the worker waits for the coordinator): their command lines as `ps` shows them.
    await new Promise((r) => setTimeout(r, 500));
    const lines = [cmdline(worker.pid), cmdline(coordinator.pid)];
    expect(lines[0]).toContain('--cluster-password-file');
    expect(lines[1]).toContain('--cluster');
    for (const line of lines) expect(line).not.toContain(PASSWORD);
    const [code] = await closed;
    worker.kill('SIGTERM');
    await once(worker, 'close');
    expect(coordinatorOut()).toContain(`pages fetched   ${BUDGET}`);
    expect(code).toBe(0);
    for (const text of [workerOut(), coordinatorOut()]) expect(text).not.toContain(PASSWORD);
    for (const file of readdirSync(out)) {
      if (file.endsWith('.sqlite') || file.endsWith('.jsonl') || file.includes('sqlite-'))
        expect(readFileSync(join(out, file)).includes(PASSWORD)).toBe(false);
    }
  }, 120_000);

  it('takes the cluster URL, password file, name and shards from the --config file, and refuses a password in its URL', async () => {
    const name = 'configured';
    const out = join(base, name);
    const config = join(base, 'cluster.yaml');
    writeFileSync(
      config,
      `cluster: ${bareUrl}\nclusterPasswordFile: ${passwordFile}\nclusterName: ${name}\nclusterShards: 8\n`,
    );
    const worker = spawnCli(
      [
        'worker',
        '--cluster',
        '--cluster-name',
        name,
        '--id',
        'wc',
        '--warc-dir',
        join(base, `${name}-warc`),
        '--quiet',
      ],
      { TRES_REDIS_URL: redis.url },
    );
    const args = crawlArgs(out, name, []);
    // The cluster options from the file only.
    const own = args.slice(0, args.indexOf('--cluster-name'));
    try {
      const result = await runWith([...own, '--quiet', '--config', config], {});
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`pages fetched   ${BUDGET}`);
    } finally {
      worker.kill('SIGTERM');
      await once(worker, 'close');
    }
    writeFileSync(config, `cluster: ${redis.url}\nclusterName: refused-config\n`);
    const refused = await runWith(
      [...crawlArgs(join(base, 'refused-config'), 'x', []).slice(0, own.length), '--config', config],
      {},
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`cluster in ${config} redis://:***@`);
    expect(refused.stderr).toContain('a password goes in a file of its own');
    expect(refused.stderr).not.toContain(PASSWORD);
    expect(existsSync(join(base, 'refused-config'))).toBe(false);
  }, 120_000);

  it('refuses a password typed into --cluster, a wrong password, an unreachable Redis and a database Redis does not have, each with its own line and exit code, leaving no crawl folder', async () => {
    const out = join(base, 'refused');
    const cases: Array<{ args: string[]; env?: Record<string, string>; code: number; says: string }> = [
      { args: ['--cluster', redis.url], code: 2, says: 'a password on the command line is visible' },
      {
        args: ['--cluster'],
        env: { TRES_REDIS_URL: `redis://:wrong@127.0.0.1:${redis.port}` },
        code: 67,
        says: 'Redis refused the credentials (WRONGPASS',
      },
      { args: ['--cluster', bareUrl], code: 67, says: 'Redis refused the credentials (NOAUTH' },
      {
        args: ['--cluster', 'redis://127.0.0.1:1'],
        code: 69,
        says: 'cannot reach Redis (connect ECONNREFUSED',
      },
      {
        args: ['--cluster', `${bareUrl}/99`, '--cluster-password-file', passwordFile],
        code: 2,
        says: 'Redis has no database 99',
      },
      { args: ['--cluster'], env: { TRES_REDIS_URL: '' }, code: 2, says: 'TRES_REDIS_URL, which is not set' },
    ];
    for (const c of cases) {
      const result = await runWith(crawlArgs(out, 'refused', c.args), c.env ?? {});
      expect(result.stderr).toContain(c.says);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/^tres: /);
      expect(result.stderr).not.toContain(PASSWORD);
      expect(result.code).toBe(c.code);
      expect(existsSync(out)).toBe(false);
    }
    // Nothing was left: the same command with the right password runs (no --resume asked for).
    const worker = spawnCli(['worker', '--cluster', '--cluster-name', 'refused', '--no-warc', '--quiet'], {
      TRES_REDIS_URL: redis.url,
    });
    const result = await runWith(crawlArgs(out, 'refused', ['--cluster']), { TRES_REDIS_URL: redis.url });
    worker.kill('SIGTERM');
    await once(worker, 'close');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 300_000);

  it('refuses a second coordinator of the same crawl name while the first runs, and leaves the first alone', async () => {
    const name = 'twice';
    const worker = spawnCli(['worker', '--cluster', '--cluster-name', name, '--no-warc', '--quiet'], {
      TRES_REDIS_URL: redis.url,
    });
    // A budget the first does not reach while the second tries.
    const firstDir = join(base, 'twice-1');
    const first = spawnCli(crawlArgs(firstDir, name, ['--cluster'], 5000), { TRES_REDIS_URL: redis.url });
    const firstOut = output(first);
    const firstClosed = once(first, 'close') as Promise<[number | null]>;
    const client = await connectRedis(redis.url, 'url');
    const keys = ClusterKeys.of(name);
    const lines = () =>
      existsSync(join(firstDir, 'pages.jsonl'))
        ? readFileSync(join(firstDir, 'pages.jsonl'), 'utf8').split('\n').length - 1
        : 0;
    try {
      const deadline = Date.now() + 60_000;
      while (lines() < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const epoch = await client.get(keys.epoch);
      const config = await client.get(keys.config);
      const startedAt = Date.now();
      const second = await runWith(crawlArgs(join(base, 'twice-2'), name, ['--cluster']), {
        TRES_REDIS_URL: redis.url,
      });
      const tookMs = Date.now() - startedAt;
      expect(second.stderr).toContain('another coordinator');
      expect(second.stderr).toContain('is running this crawl');
      expect(second.stderr).toContain('--cluster-name');
      expect(second.code).toBe(75);
      expect(existsSync(join(base, 'twice-2'))).toBe(false);
      // Half a lease life (the default 10 s) of watching the lock, plus the command's start-up,
      // which takes from seconds to tens of seconds on a loaded machine.
      console.log(`second coordinator refused after ${tookMs} ms`);
      // The first's keys are as they were, and it goes on crawling.
      expect(await client.get(keys.epoch)).toBe(epoch);
      expect(await client.get(keys.config)).toBe(config);
      const before = lines();
      const until = Date.now() + 30_000;
      while (lines() <= before && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(lines()).toBeGreaterThan(before);
      first.kill('SIGINT');
      const [code] = await firstClosed;
      expect(code).toBe(130);
      expect(firstOut()).not.toContain('tres:');
    } finally {
      client.disconnect();
      first.kill('SIGKILL');
      worker.kill('SIGTERM');
      await once(worker, 'close');
    }
  }, 240_000);

  it('a worker refuses a crawl of another cluster protocol (another tres version), with one line and exit code 76', async () => {
    const client = await connectRedis(redis.url, 'url');
    try {
      await client.set(ClusterKeys.of('elder').config, JSON.stringify({ epoch: 1, shards: 4, protocol: 1 }));
      const result = await runCli(['worker', '--cluster', '--cluster-name', 'elder', '--no-warc'], {
        TRES_REDIS_URL: redis.url,
      });
      expect(result.code).toBe(76);
      expect(result.stderr).toContain('cluster protocol 1');
      expect(result.stderr).toContain('run the same tres version as the coordinator');
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('Ctrl-C twice stops a coordinator whose Redis is gone, at once', async () => {
    const own = await startLocalRedis();
    const name = 'gone';
    const worker = spawnCli(['worker', '--cluster', own.url, '--cluster-name', name, '--no-warc', '--quiet']);
    const coordinator = spawnCli(crawlArgs(join(base, name), name, ['--cluster', own.url], 400));
    const text = output(coordinator);
    const closed = once(coordinator, 'close') as Promise<[number | null]>;
    try {
      const deadline = Date.now() + 60_000;
      while (!existsSync(join(base, name, 'pages.jsonl')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1000));
      await own.stop();
      await new Promise((r) => setTimeout(r, 500));
      const at = Date.now();
      coordinator.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 300));
      coordinator.kill('SIGINT');
      const [code] = await closed;
      const tookMs = Date.now() - at;
      expect(code).toBe(130);
      // The lock's release and the goodbye to Redis wait a second each at most.
      expect(tookMs).toBeLessThan(8000);
      expect(text()).toContain('stopping');
    } finally {
      worker.kill('SIGKILL');
      coordinator.kill('SIGKILL');
    }
  }, 120_000);
});
