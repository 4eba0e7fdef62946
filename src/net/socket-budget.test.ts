import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fetcher } from './fetcher.js';
import { isDescriptorExhaustion } from './socket-budget.js';

describe('the socket budget', () => {
  // A server for every host name that keeps each idle connection for a minute.
  let server: Server;
  const sockets = new Set<Socket>();
  let peak = 0;
  const farm = {
    port: 0,
    openConnections: () => sockets.size,
    peakConnections: () => peak,
  };
  beforeAll(async () => {
    server = createServer({ keepAliveTimeout: 60_000 }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a page</p>');
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      peak = Math.max(peak, sockets.size);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    farm.port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps at most maxSockets connections open over many hosts, closing idle ones first', async () => {
    const fetcher = new Fetcher({
      resolveRules: [`*=127.0.0.1:${farm.port}`],
      allowLoopback: true,
      maxSockets: 3,
    });
    try {
      for (let host = 0; host < 12; host++) {
        const result = await fetcher.fetch(`http://h${host}.farm.test/`);
        expect(result.status).toBe(200);
        expect(farm.openConnections()).toBeLessThanOrEqual(3);
      }
      expect(fetcher.sockets.stats().idleClosed).toBeGreaterThanOrEqual(9);
      expect(farm.peakConnections()).toBeLessThanOrEqual(4);
      // In flight together, more hosts than the budget: the extra ones wait for a place.
      const many = await Promise.all(
        Array.from({ length: 8 }, (_, i) => fetcher.fetch(`http://h${100 + i}.farm.test/`)),
      );
      expect(many.every((r) => r.status === 200)).toBe(true);
      expect(fetcher.sockets.stats().open).toBeLessThanOrEqual(3);
    } finally {
      await fetcher.close();
    }
  });

  it('reuses the idle connection of a host fetched again', async () => {
    const fetcher = new Fetcher({ resolveRules: [`*=127.0.0.1:${farm.port}`], allowLoopback: true });
    try {
      await fetcher.fetch('http://h500.farm.test/');
      await fetcher.fetch('http://h500.farm.test/robots.txt', { allowedContentTypes: false });
      expect(fetcher.sockets.stats().open).toBe(1);
      expect(fetcher.sockets.stats().idleClosed).toBe(0);
    } finally {
      await fetcher.close();
    }
  });

  it('knows the errors of a system out of descriptors', () => {
    expect(isDescriptorExhaustion(Object.assign(new Error('x'), { code: 'EMFILE' }))).toBe(true);
    expect(isDescriptorExhaustion(Object.assign(new Error('x'), { code: 'ENFILE' }))).toBe(true);
    expect(isDescriptorExhaustion(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(false);
  });
});
