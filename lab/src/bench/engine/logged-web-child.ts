/**
 * The cluster benchmark's latency-bound web in a process of its own (forked by cluster-bench.ts):
 * its request log stamps requests on a clock no coordinator or worker delays, so the closest gap
 * per host it reports is the workers' politeness, not the benchmark's own event loop. Talks over
 * the IPC channel: it sends `{ ready, resolveRules }` once listening, then answers `take` with
 * the log since the last `take` (and its event-loop delay and CPU time over that stretch), and
 * closes on `close`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type LoggedRequest, type LoggedWebOptions, startLoggedWeb } from 'tres-testing';

/** What the child sends back for `take`. */
export interface LoggedWebTake {
  log: LoggedRequest[];
  /** Longest event-loop delay of the server's process over the stretch, ms. */
  lagMaxMs: number;
  /** CPU time of the server's process over the stretch, ms. */
  cpuMs: number;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as LoggedWebOptions;
  const web = await startLoggedWeb(options);
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let cpu = process.cpuUsage();
  process.on('message', (message: { kind: 'take' | 'close' }) => {
    if (message.kind === 'take') {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      const take: LoggedWebTake = {
        log: web.log.splice(0),
        lagMaxMs: lag.max / 1e6,
        cpuMs: (used.user + used.system) / 1000,
      };
      lag.reset();
      process.send?.(take);
    } else {
      lag.disable();
      void web.close().then(() => process.disconnect());
    }
  });
  process.send?.({ ready: true, resolveRules: web.resolveRules });
}

void main();
