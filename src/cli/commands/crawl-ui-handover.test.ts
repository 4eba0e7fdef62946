/**
 * `tres crawl --ui` in a terminal: when the crawl ends, its dashboard stays on
 * the same address, read-only, until Ctrl-C. The built CLI runs in a real pseudo-terminal
 * (util-linux `script`, as a user's shell gives it one), against a site on loopback whose seed
 * answers only when the test says, so the live view is asked before the crawl can end; Ctrl-C is
 * the ^C byte typed into the terminal, which the terminal turns into SIGINT.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from 'tres-testing/temp-dir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendHtml, startServer, type TestServer } from '../../net/test-servers.js';
import { TRES_BIN } from '../test-cli.js';

const SCRIPT = '/usr/bin/script';
const hasScript = existsSync(SCRIPT);
if (!hasScript) console.warn(`hand-over test skipped: ${SCRIPT} is not installed (apt-get install bsdutils)`);

/** A POSIX shell word. */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!hasScript)('tres crawl --ui in a terminal', () => {
  let server: TestServer;
  const base = tempDir('tres-handover-');
  let openGate: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  beforeAll(async () => {
    // site.test: the home page (held until the gate opens) links to three pages.
    server = await startServer(async (req, res) => {
      const path = req.url ?? '/';
      if (path === '/robots.txt') return res.writeHead(404).end();
      if (path === '/') {
        await gate;
        return sendHtml(
          res,
          '<html><title>home</title><body>crawling <a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a></body></html>',
        );
      }
      sendHtml(res, `<html><title>${path}</title><body>a crawling page</body></html>`);
    });
  });
  afterAll(async () => {
    openGate();
    await server.close();
  });

  it('hands the live dashboard over to the read-only view on the same address when the crawl ends, until Ctrl-C', async () => {
    const seeds = join(base, 'seeds.txt');
    writeFileSync(seeds, 'http://site.test/\n');
    const out = join(base, 'crawl');
    const tres = [
      process.execPath,
      TRES_BIN,
      'crawl',
      '--seeds',
      seeds,
      '--out',
      out,
      '--keywords',
      'crawling',
    ]
      .concat(['--resolve', server.rule, '--allow-loopback', '--min-delay-ms', '0', '--quiet'])
      .concat(['--ui', '--ui-port', '0']);
    // script -q: no banner; -f: flush at once; -e: exit with the command's code; -c: the command,
    // run by $SHELL, else /bin/sh. `exec`: the shell becomes tres. Without it dash (Debian's
    // /bin/sh, what CI has) stays as tres's parent in the terminal's process group, ^C kills it,
    // and script reports 130 whatever tres did.
    const child: ChildProcess = spawn(SCRIPT, ['-qfec', `exec ${tres.map(quote).join(' ')}`, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, TERM: 'dumb' },
    });
    let output = '';
    const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
    child.stdout?.on('data', (d) => {
      output += d;
      for (const w of waiters.splice(0)) {
        const m = w.pattern.exec(output);
        if (m) w.resolve(m);
        else waiters.push(w);
      }
    });
    const closed = once(child, 'close') as Promise<[number | null, string | null]>;
    const waitFor = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const m = pattern.exec(output);
        if (m) return resolve(m);
        waiters.push({ pattern, resolve });
        void closed.then(() => reject(new Error(`the CLI ended before printing ${pattern}:\n${output}`)));
      });
    try {
      const url = (await waitFor(/dashboard at (http:\/\/127\.0\.0\.1:\d+\/)/))[1]!;
      // Live: the crawl waits on its seed.
      const live = (await (await fetch(`${url}api/status`)).json()) as { isLive: boolean; state: string };
      expect(live).toMatchObject({ isLive: true, state: 'running' });

      openGate();
      await waitFor(/the crawl ended; its dashboard stays at (\S+) \(read-only\) until Ctrl-C/);
      expect(output).toContain(`its dashboard stays at ${url} (read-only)`);
      // The same address now serves the finished crawl, read-only.
      const after = (await (await fetch(`${url}api/status`)).json()) as {
        isLive: boolean;
        state: string;
        progress: { steps: number };
      };
      expect(after).toMatchObject({ isLive: false, state: 'read-only', progress: { steps: 4 } });
      expect((await fetch(url)).headers.get('content-type')).toContain('text/html');
      const pages = (await (await fetch(`${url}api/pages`)).json()) as { total: number };
      expect(pages.total).toBe(4);
      const json = { 'content-type': 'application/json' };
      expect((await fetch(`${url}api/pause`, { method: 'POST', headers: json, body: '{}' })).status).toBe(
        409,
      );
      expect(child.exitCode).toBeNull(); // still serving

      // Ctrl-C, typed into the terminal.
      child.stdin?.write('\x03');
      const [code] = await closed;
      expect(code).toBe(0);
      await expect(fetch(`${url}api/status`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
