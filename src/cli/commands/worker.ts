/**
 * `tres worker`: one fetch process of a cluster crawl (src/cluster, docs/scale-out.md). Runs
 * until Ctrl-C or SIGTERM: then it stops reading requests, lets its fetches finish and report,
 * and gives its shards back.
 */
import type { Command } from 'commander';
import { ConfigError } from '../../common/index.js';

const EXAMPLES = `
Examples:
  tres crawl --seeds seeds.txt --out crawl1 --keywords debian --cluster redis://10.0.0.5:6379
  tres worker --cluster redis://10.0.0.5:6379 --warc-dir /shared/crawl1/warc   # on each machine
  export TRES_REDIS_URL=rediss://tres:secret@redis.example:6380/2   # the password stays off ps
  tres worker --cluster --cluster-name crawl1
  tres worker --cluster redis://10.0.0.5:6379 --cluster-password-file ~/.tres-redis-password

Exit codes: 0 stopped, 2 bad options, 67 Redis refused the password, 69 Redis unreachable,
76 the crawl in Redis is of another tres version.

Each worker writes its own WARC file <warc-dir>/<id>.warc.gz; the crawl store records which file
and where, so put them where \`tres export --with-text\` can read them (a shared folder, or
copy them into <crawl>/warc afterwards).`;

interface WorkerFlags {
  cluster?: string | true;
  clusterPasswordFile?: string;
  clusterName?: string;
  id?: string;
  warcDir?: string;
  warc?: boolean;
  concurrency?: string;
  leaseTtlMs?: string;
  quiet?: boolean;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('fetch, parse and judge pages for a cluster crawl coordinated by `tres crawl --cluster`')
    .option(
      '--cluster [redis-url]',
      'the Redis of the crawl: redis://[user@]host:port[/db] or rediss://; alone: the URL in TRES_REDIS_URL, password included (never a password here: ps shows it)',
    )
    .option(
      '--cluster-password-file <file>',
      "file whose first line is the Redis password of --cluster's URL",
    )
    .option('--cluster-name <name>', 'name of the crawl in Redis, as given to tres crawl (default: crawl)')
    .option('--id <id>', 'worker id, names its WARC file (default: <hostname>-<pid>)')
    .option('--warc-dir <dir>', "folder of this worker's WARC file (default: warc)")
    .option('--no-warc', 'write no WARC file (then export --with-text has no text for its pages)')
    .option('--concurrency <n>', 'fetches in flight at most (default: 64)')
    .option(
      '--lease-ttl-ms <ms>',
      "life of this worker's shard leases, renewed every fifth of it; a paused or dead worker's shards are taken over after it (default: 10000)",
    )
    .option('--quiet', 'no messages about shards')
    .addHelpText('after', EXAMPLES)
    .action(async (flags: WorkerFlags) => {
      if (flags.cluster === undefined) {
        throw new ConfigError(
          'tres worker needs --cluster <redis-url> (or --cluster alone with TRES_REDIS_URL set), the Redis the coordinator (tres crawl --cluster) uses',
          {
            context: { field: '--cluster' },
          },
        );
      }
      let maxConcurrency: number | undefined;
      if (flags.concurrency !== undefined) {
        maxConcurrency = Number(flags.concurrency);
        if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
          throw new ConfigError(
            `--concurrency must be a whole number >= 1, got ${JSON.stringify(flags.concurrency)}`,
            {
              context: { field: '--concurrency' },
            },
          );
        }
      }
      let leaseTtlMs: number | undefined;
      if (flags.leaseTtlMs !== undefined) {
        leaseTtlMs = Number(flags.leaseTtlMs);
        if (!Number.isInteger(leaseTtlMs) || leaseTtlMs < 1000) {
          throw new ConfigError(
            `--lease-ttl-ms must be a whole number of milliseconds >= 1000, got ${JSON.stringify(flags.leaseTtlMs)}`,
            { context: { field: '--lease-ttl-ms' } },
          );
        }
      }
      const { ClusterWorker, clusterUrlOf } = await import('../../cluster/index.js');
      const url = clusterUrlOf({
        cluster: flags.cluster,
        ...(flags.clusterPasswordFile === undefined ? {} : { passwordFile: flags.clusterPasswordFile }),
        env: process.env,
      });
      const log = flags.quiet ? false : (line: string) => process.stderr.write(`tres worker: ${line}\n`);
      const worker = new ClusterWorker({
        url,
        flag: '--cluster',
        ...(flags.clusterName === undefined ? {} : { name: flags.clusterName }),
        ...(flags.id === undefined ? {} : { id: flags.id }),
        warcDir: flags.warc === false ? false : (flags.warcDir ?? 'warc'),
        ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
        ...(leaseTtlMs === undefined ? {} : { leaseTtlMs }),
        log,
      });
      const onSignal = () => worker.stop();
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        const s = await worker.run();
        console.log(
          `worker ${s.id}: ${s.fetched} fetched, ${s.failed} failed, ${s.claimed} taken over; WARC ${s.warcFile ?? 'none'}`,
        );
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
