import type { Server } from 'node:http';
import { isIPv6, type Socket } from 'node:net';

// Open connections per client address, beside Node's global `maxConnections`: once the server
// holds half its connections, an address (or IPv6 /64, what a single host usually holds) that
// already has `perAddress` open gets no more (new ones are closed on arrival), so the other half
// stays for everyone else and one client cannot lock the others out. Below that, one address may
// open as many as it likes (a busy host, a proxy, a load test).

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

/** Counts open connections in all and per `addressKey`; refuses as described above. */
export function boundConnectionsPerAddress(
  server: Server,
  limits: { perAddress: number; maxConnections: number },
): void {
  const open = new Map<string, number>();
  const pressure = Math.floor(limits.maxConnections / 2);
  let total = 0;
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress);
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.perAddress && total >= pressure) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    total++;
    socket.once('close', () => {
      total--;
      const left = open.get(key)! - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
