/**
 * Resolve rules that put a crawler inside a sandbox: every host the replay server serves goes to
 * it, and every other host fails as a DNS miss (`*=none`), so no request ever leaves loopback.
 */
import type { ReplayServer } from './replay-server.js';

/** `HOST=127.0.0.1:PORT` for each served host (and host that redirects to one), then `*=none`. */
export function sandboxResolveRules(
  server: Pick<ReplayServer, 'hosts' | 'port'> & Partial<Pick<ReplayServer, 'aliasHosts'>>,
): string[] {
  const hosts = [...server.hosts, ...(server.aliasHosts ?? [])];
  return [...hosts.map((host) => `${host}=127.0.0.1:${server.port}`), '*=none'];
}
