// A real php-fpm pool for the tests that run PHP as production does: one static worker on
// 127.0.0.1:<free port>, Debian's FPM php.ini and extensions, PHP's error log in a file of its own
// (what the SDK's warnings write to under FPM). Requests go through cgi-fcgi (Debian's
// libfcgi-bin), a real FastCGI client whose parameters are its environment; it exits when FPM ends
// the response, which under FPM comes before the shutdown functions (fastcgi_finish_request).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnProcess, type Spawned } from '@svc/testkit';

export interface FpmPool {
  /** One request; resolves when FPM ends its response, with what cgi-fcgi printed. */
  request(params: Record<string, string>): Promise<{ output: string; doneAt: number }>;
  /** The lines of PHP's error log so far. */
  errorLog(): string[];
  /** Empties PHP's error log. */
  clearErrorLog(): void;
  stop(): Promise<void>;
}

const binary = () => {
  const name = readdirSync('/usr/sbin').find((file) => file.startsWith('php-fpm'));
  if (!name) throw new Error('php-fpm is not installed (Debian package php-fpm)');
  return `/usr/sbin/${name}`;
};

async function listening(port: number, fpm: Spawned, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (fpm.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`php-fpm did not start: ${fpm.output()}${log()}`);
}

/**
 * Starts php-fpm with one worker (`pm = static`), so a second request waits until the first is
 * done; `env` is the workers' process environment (TMPDIR: where PHP's temporary files go).
 */
export async function startFpm(env: Record<string, string> = {}): Promise<FpmPool> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-fpm-'));
  const port = await freePort();
  const errorLog = join(dir, 'php-errors.log');
  writeFileSync(errorLog, '');
  writeFileSync(
    join(dir, 'fpm.conf'),
    [
      '[global]',
      `error_log = ${dir}/fpm.log`,
      'daemonize = no',
      '[www]',
      `listen = 127.0.0.1:${port}`,
      'pm = static',
      'pm.max_children = 1',
      'clear_env = no',
      'php_admin_flag[log_errors] = on',
      `php_admin_value[error_log] = ${errorLog}`,
      '',
    ].join('\n'),
  );
  const root = process.getuid?.() === 0 ? ['-R'] : [];
  const fpm = spawnProcess(binary(), ['-F', '-y', join(dir, 'fpm.conf'), ...root], {
    env: { PATH: process.env.PATH, ...env },
  });
  const fpmLog = () => {
    try {
      return readFileSync(join(dir, 'fpm.log'), 'utf8');
    } catch {
      return '';
    }
  };
  await listening(port, fpm, fpmLog);
  return {
    request(params) {
      return new Promise((resolve, reject) => {
        const client = spawn('/usr/bin/cgi-fcgi', ['-bind', '-connect', `127.0.0.1:${port}`], {
          env: { REQUEST_METHOD: 'GET', SERVER_PROTOCOL: 'HTTP/1.1', ...params },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        client.stdout.on('data', (d) => (output += d));
        client.stderr.on('data', (d) => (output += d));
        client.once('error', reject);
        client.once('close', () => resolve({ output, doneAt: performance.now() }));
      });
    },
    errorLog: () =>
      readFileSync(errorLog, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    clearErrorLog: () => writeFileSync(errorLog, ''),
    async stop() {
      fpm.kill('SIGKILL');
      await fpm.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
