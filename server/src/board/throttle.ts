import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../core/hash.ts';
import { addressKey } from '../http/connections.ts';
import type { BoardStore, ThrottleRule } from '../store/board-types.ts';

// Wrong admin tokens, counted per client and per token presented: each has a bucket of `burst`
// failures that refills at one per `everyMs`. A wrong token whose client (or the token itself) has
// spent its bucket is answered 429 with Retry-After instead of 401, so guessing runs at 10 a minute
// per client, and a leaked or stale token hammered from many places is slowed too. A right token
// is checked first and never throttled: behind a reverse proxy, someone else's wrong tokens cannot
// lock an admin out. The client is the socket's address, or, when that is a trusted proxy
// (`trustedProxies`), the nearest address in `X-Forwarded-For` that is not one. The counts live in
// the board's store: memory on SQLite (one process), a table every PostgreSQL instance shares.

export const SIGN_IN_RULE: ThrottleRule = { burst: 10, everyMs: 6000 };

export interface SignInThrottle {
  /**
   * A wrong token `presented` by the request's client: whole seconds it must wait (429), or 0
   * when this failure was within its bucket (401).
   */
  failed(req: FastifyRequest, presented: string): Promise<number>;
}

/** Addresses and subnets (`10.0.0.0/8`, `fd00::/8`) of reverse proxies whose `X-Forwarded-For` counts. */
export function trustedList(proxies: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of proxies) {
    const [address = '', bits] = entry.trim().split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (!isIP(address)) throw new TypeError(`Not an address or subnet: ${entry}`);
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/** An address as `BlockList` checks it: IPv4-mapped IPv6 as IPv4, zone dropped. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  let a = address.trim().split('%')[0]!.toLowerCase();
  if (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4) a = a.slice(7);
  const version = isIP(a);
  return version === 0 ? undefined : { address: a, family: version === 6 ? 'ipv6' : 'ipv4' };
}

/**
 * The client of a request: its socket's address, or behind trusted proxies the last address of
 * `X-Forwarded-For` that is not a trusted proxy (a malformed entry ends the walk at the proxy).
 */
export function clientAddress(req: FastifyRequest, trusted: BlockList): string {
  let client = req.socket.remoteAddress ?? '?';
  const isTrusted = (address: string) => {
    const p = plain(address);
    return p !== undefined && trusted.check(p.address, p.family);
  };
  if (!isTrusted(client)) return client;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plain(hops[i]!);
    if (!hop) break;
    client = hop.address;
    if (!trusted.check(hop.address, hop.family)) break;
  }
  return client;
}

export function createSignInThrottle(opts: {
  now: () => number;
  counts: BoardStore['signInFailed'];
  trustedProxies?: readonly string[];
  rule?: ThrottleRule;
}): SignInThrottle {
  const rule = opts.rule ?? SIGN_IN_RULE;
  const trusted = trustedList(opts.trustedProxies ?? []);
  return {
    async failed(req, presented) {
      const client = `client:${addressKey(clientAddress(req, trusted))}`;
      const wait = await opts.counts(client, opts.now(), rule);
      // A client out of attempts is refused before its token is counted (or stored).
      if (wait > 0) return wait;
      return opts.counts(`token:${sha256Hex(presented)}`, opts.now(), rule);
    },
  };
}
