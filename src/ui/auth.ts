/**
 * Who may talk to the dashboard. Bound to loopback, it answers requests whose Host header names
 * loopback (a DNS-rebinding page cannot read it). Bound to any other address, every API and
 * metrics request must carry the token, as `Authorization: Bearer TOKEN` or `?token=TOKEN`.
 * State changes are POST only, with a JSON body (a cross-site form cannot send one).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** A new random token (32 bytes, base64url). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The token a request carries (bearer header first, then `?token=`), or undefined. */
export function requestToken(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  return url.searchParams.get('token') ?? undefined;
}

/** Constant-time comparison of a given token with the expected one. */
export function isTokenValid(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The host name of a Host header (`127.0.0.1:8080` -> `127.0.0.1`, `[::1]:80` -> `::1`). */
export function hostOfHeader(value: string | undefined): string {
  if (!value) return '';
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']'));
  return value.replace(/:\d+$/, '');
}
