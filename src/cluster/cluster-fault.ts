/**
 * Faults of a cluster crawl that end it: Redis unreachable or refusing the credentials, Redis full,
 * another coordinator holding the crawl's name, a worker of another tres version or of another
 * crawl (a new crawl took its crawl's name). Each is one
 * {@link ClusterFaultError} with a message that names the flag and says what to do, and an exit
 * code of its own (sysexits.h numbers), so that `tres` prints one line and a script can tell the
 * faults apart. A crawl stopped by one loses nothing: every page it recorded is in the store, and
 * `tres crawl --resume` goes on from there.
 */
import type { ErrorCode } from '../common/index.js';
import { StopCrawlError } from '../common/index.js';

/** What went wrong. */
export type ClusterFaultKind = 'unreachable' | 'auth' | 'busy' | 'full' | 'protocol' | 'other-crawl';

/**
 * Exit code of each fault (sysexits.h: EX_UNAVAILABLE, EX_NOUSER, EX_TEMPFAIL, EX_OSERR,
 * EX_PROTOCOL, EX_NOHOST for a crawl name that names another crawl now). Distinct from the storage faults' (73, 77, 65, 74) and from 2 (bad options).
 */
export const CLUSTER_EXIT_CODES: Readonly<Record<ClusterFaultKind, number>> = Object.freeze({
  unreachable: 69,
  auth: 67,
  busy: 75,
  full: 71,
  protocol: 76,
  'other-crawl': 68,
});

const CODES: Readonly<Record<ClusterFaultKind, ErrorCode>> = {
  unreachable: 'TRES_CLUSTER_UNREACHABLE',
  auth: 'TRES_CLUSTER_AUTH',
  busy: 'TRES_CLUSTER_BUSY',
  full: 'TRES_CLUSTER_REDIS_FULL',
  protocol: 'TRES_CLUSTER_PROTOCOL',
  'other-crawl': 'TRES_CLUSTER_OTHER_CRAWL',
};

/** A cluster fault: stops the crawl (or the worker); `exitCode` is what `tres` exits with. */
export class ClusterFaultError extends StopCrawlError {
  readonly kind: ClusterFaultKind;
  readonly exitCode: number;

  constructor(kind: ClusterFaultKind, message: string, options: { field?: string; cause?: unknown } = {}) {
    super(CODES[kind], message, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      context: { field: options.field ?? '--cluster' },
    });
    this.name = 'ClusterFaultError';
    this.kind = kind;
    this.exitCode = CLUSTER_EXIT_CODES[kind];
  }
}

/** True for Redis's refusal of a write for lack of memory (maxmemory, noeviction). */
export function isOutOfMemory(error: unknown): boolean {
  // A script's refusal carries the same text after a prefix of its own.
  return /\bOOM command not allowed/.test(String((error as Error | undefined)?.message ?? ''));
}

/** True for a stream or consumer group that is gone (Redis restarted empty, keys deleted). */
export function isNoGroup(error: unknown): boolean {
  return String((error as Error | undefined)?.message ?? '').includes('NOGROUP');
}
