import type { Server } from 'node:http';
import { isIPv6, type Socket } from 'node:net';

// Open connections per client address, beside Node's global `maxConnections`: past the bound a
// new connection from that address is closed on arrival, so one address (or one IPv6 /64, what a
// single host usually holds) cannot take every slot, and other clients and `/health` still get in.

/** The key a connection is counted under: IPv4 as is (also when IPv4-mapped), IPv6 by its /64. */
export function addressKey(remote: string | undefined): string {
  if (!remote) return '?';
  const address = remote.split('%')[0]!.toLowerCase();
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Counts open connections per `addressKey`; closes those over `perAddress` at once. */
export function boundConnectionsPerAddress(server: Server, perAddress: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress);
    const count = (open.get(key) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = open.get(key)! - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
