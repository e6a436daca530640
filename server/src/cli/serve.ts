import { sealedBoxBackend } from '../core/sealed-box.ts';
import type { SourceMapOptions } from '../mapping/options.ts';
import { trustedList } from '../board/throttle.ts';
import { startServer } from '../server.ts';
import { type Flags, UsageError } from './args.ts';
import { describeEngine, redactUrl } from '../store/open.ts';
import { databaseUrlOf, dataDirOf } from './shared.ts';
import { startWhenReachable } from './wait-for-database.ts';
import { publicUrlFlag, webhookPolicyOf } from './alerts.ts';

export function serveOptions(flags: Flags) {
  const port = Number(flags.port ?? process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError('--port must be 0-65535.');
  const durability = flags.durability ?? 'process';
  if (durability !== 'process' && durability !== 'power') {
    throw new UsageError('--durability must be process or power.');
  }
  const smtpHost = flags['smtp-host'] ?? process.env.SERVICE_SMTP_HOST;
  const smtpPort = Number(flags['smtp-port'] ?? process.env.SERVICE_SMTP_PORT ?? 25);
  return {
    host: flags.host ?? '127.0.0.1',
    port,
    dataDir: dataDirOf(flags),
    databaseUrl: databaseUrlOf(flags),
    durability,
    board: flags.board === true,
    trustedProxies: trustedProxiesOf(flags),
    sourceMaps: sourceMapFlags(flags),
    alerts: { ...webhookPolicyOf(flags), publicUrl: publicUrlFlag(flags) },
    smtp: smtpHost
      ? {
          host: smtpHost,
          port: smtpPort,
          from: flags['smtp-from'] ?? process.env.SERVICE_SMTP_FROM,
        }
      : undefined,
  } as const;
}

/** `--trusted-proxy` (repeated), else `$SERVICE_TRUSTED_PROXIES` (comma-separated); checked. */
function trustedProxiesOf(flags: Flags): string[] {
  const given = flags['trusted-proxy'] ?? (process.env.SERVICE_TRUSTED_PROXIES ?? '').split(',');
  const proxies = given.map((p) => p.trim()).filter(Boolean);
  try {
    trustedList(proxies);
  } catch (error) {
    throw new UsageError(`--trusted-proxy: ${(error as Error).message}`);
  }
  return proxies;
}

/** `--sourcemap-*` flags as `startServer`'s `sourceMaps` (unset ones keep their defaults). */
function sourceMapFlags(flags: Flags): SourceMapOptions | false {
  if (flags['no-sourcemaps']) return false;
  const count = (flag: keyof Flags & `sourcemap-${string}`): number | undefined => {
    const value = flags[flag] as string | undefined;
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 1)
      throw new UsageError(`--${flag} must be a positive integer.`);
    return n;
  };
  return {
    fileBytesMax: count('sourcemap-file-bytes'),
    projectBytesMax: count('sourcemap-project-bytes'),
    releasesKept: count('sourcemap-releases'),
    segmentsMax: count('sourcemap-segments'),
    cacheBytes: count('sourcemap-cache-bytes'),
  };
}

/** The longest `serve` waits for a clean close after SIGTERM/SIGINT before it exits anyway. */
const CLOSE_DEADLINE_MS = 8000;

/**
 * `svc-server serve`: runs until SIGINT/SIGTERM, then closes cleanly. A database that cannot be
 * reached yet is waited for (one log line), not a reason to exit.
 */
export async function runServe(flags: Flags): Promise<void> {
  const opts = serveOptions(flags);
  const stopping = new AbortController();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const stop = () => {
    stopping.abort();
    if (!server) return;
    // Every part of close() is bounded (HTTP 2 s, SMTP abandoned, store calls by their deadlines);
    // this is the last guard, under the 10 s a container runtime waits before it kills.
    setTimeout(() => {
      console.error(`svc-server: not closed within ${CLOSE_DEADLINE_MS} ms, exiting`);
      process.exit(1);
    }, CLOSE_DEADLINE_MS).unref();
    server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server = await startWhenReachable(() => startServer(opts), { signal: stopping.signal });
  if (!server) return; // stopped while waiting for the database: nothing was opened
  if (stopping.signal.aborted) return void server.close().then(() => process.exit(0));
  const data = opts.databaseUrl ? redactUrl(opts.databaseUrl) : opts.dataDir;
  console.log(`svc-server listening on ${server.url} (data: ${data})`);
  console.log(`svc-server: sealed boxes opened with ${sealedBoxBackend}`);
  console.log(`svc-server: ${await describeEngine(opts.databaseUrl)}`);
  if (server.board) {
    console.log(
      `Board: ${server.board.url} (sign in with a token from "svc-server admin-token create")`,
    );
  }
}
