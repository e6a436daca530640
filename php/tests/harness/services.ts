// The three services an SDK meets at exit, all real sockets on 127.0.0.1: the reference service
// (@svc/server, up), a port nothing listens on (refusing), and a server that accepts every
// connection and never answers (silent: the kernel completes the handshake and takes the request;
// nothing ever comes back). A process run through `runTimed` records when each line of its output
// and its exit arrived, on the clock the FPM requests use (performance.now()).
import { spawn, type SpawnOptions } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { freePort } from '@svc/testkit';

export interface SilentService {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

export async function startSilentService(): Promise<SilentService> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.resume(); // read the request, answer nothing
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens: every connection is refused. */
export async function refusingUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

export interface TimedRun {
  code: number | null;
  /** Each line of stdout and stderr with when it arrived. */
  lines: { at: number; text: string }[];
  exitAt: number;
  output: string;
}

/** Runs a process to its end, timing every line of its output and its exit. */
export function runTimed(
  command: string,
  args: string[],
  options: SpawnOptions,
): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    const lines: TimedRun['lines'] = [];
    const partial = { stdout: '', stderr: '' };
    const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const at = performance.now();
      const parts = (partial[stream] + chunk.toString()).split('\n');
      partial[stream] = parts.pop() ?? '';
      for (const text of parts) lines.push({ at, text });
    };
    child.stdout?.on('data', take('stdout'));
    child.stderr?.on('data', take('stderr'));
    child.once('error', reject);
    child.once('exit', (code) => {
      const exitAt = performance.now();
      child.once('close', () => {
        for (const rest of [partial.stdout, partial.stderr])
          if (rest) lines.push({ at: exitAt, text: rest });
        resolve({ code, lines, exitAt, output: lines.map((l) => l.text).join('\n') });
      });
    });
  });
}
