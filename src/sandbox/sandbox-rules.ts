/**
 * Resolve rules that put a crawler inside a sandbox: every host the replay server serves goes to
 * it, and every other host fails as a DNS miss (`*=none`), so no request ever leaves loopback.
 */
import type { ReplayServer } from './replay-server.js';

/** `HOST=127.0.0.1:PORT` for each served host, then `*=none`. */
export function sandboxResolveRules(server: Pick<ReplayServer, 'hosts' | 'port'>): string[] {
  return [...server.hosts.map((host) => `${host}=127.0.0.1:${server.port}`), '*=none'];
}
