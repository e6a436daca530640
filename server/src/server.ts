import { resolve } from 'node:path';
import { createAdmin, type Admin } from './admin.ts';
import type { AlertAdmin } from './alerts/admin.ts';
import type { AlertOptions } from './alerts/deliverer.ts';
import { type RunningAlerts, startAlerts } from './alerts/start.ts';
import { type AdminTokens, createAdminTokens } from './board/tokens.ts';
import { LIMITS, PLANS } from './generated/limits.gen.ts';
import { buildApp } from './http/app.ts';
import { startNotifier } from './mail/notifier.ts';
import { type SmtpOptions, startMailSender } from './mail/sender.ts';
import type { AlertStore } from './store/alert-types.ts';
import type { BoardStore } from './store/board-types.ts';
import { createAvailability } from './store/guard.ts';
import { startSourceMaps } from './mapping/start.ts';
import type { SourceMapOptions } from './mapping/options.ts';
import { openBoardStore, openStore } from './store/open.ts';
import type { SourceMapStore } from './store/sourcemap-types.ts';
import type { Plan, PlanLimits, Store } from './store/types.ts';

export interface ServerOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 8787 */
  port?: number;
  /** Where the SQLite database lives. @default process.env.SERVICE_DATA_DIR ?? './.data' */
  dataDir?: string;
  /**
   * `postgres://user:password@host:port/db`: use PostgreSQL instead of SQLite, so several
   * instances can share one database (migrated at start). @default process.env.DATABASE_URL
   */
  databaseUrl?: string;
  /** The clock, Unix ms (burst windows, quota days, timestamps, signature window). @default Date.now */
  now?: () => number;
  /** Variants kept per card before the least recently seen fold into `Other variants`. @default 20 */
  variantCap?: number;
  /** Per-plan overrides of the burst limit and daily quota. @default the contract's table */
  plans?: Partial<Record<Plan, Partial<PlanLimits>>>;
  /** `process`: survives a killed process; `power`: also power loss (fsync per commit). @default 'process' */
  durability?: 'process' | 'power';
  /** Send quota warnings and notifications over SMTP; without it they stay in the outbox. @default undefined */
  smtp?: SmtpOptions;
  /**
   * When a project's notifications (new cards, regressions; `svc-server notify on`) go out: once
   * its oldest unsent notice is `delayMs` old, at most one e-mail per `intervalMs`, naming every
   * card since the last one. @default { delayMs: 60000, intervalMs: 300000 }
   */
  notifications?: {
    /** How long a project's first unsent notice waits for others to join it. @default 60000 */
    delayMs?: number;
    /** The least time between two e-mails of one project. @default 300000 */
    intervalMs?: number;
  };
  /** A ready store instead of the embedded SQLite one (dataDir, durability, plans are then unused). */
  store?: Store;
  /**
   * Source maps: builds upload them (`POST /api/v1/sourcemaps`, a secret key) and reports are
   * mapped through them at ingestion; `false` turns both off. Each limit defaults to the spec's
   * `x-svc-sourcemaps` (see `SourceMapOptions`). @default {}
   */
  sourceMaps?: SourceMapOptions | false;
  /** The source-map store; with a custom `store`, source maps are off without one. @default undefined */
  sourceMapStore?: SourceMapStore;
  /**
   * Alert rules' deliveries to webhooks (set up with `svc-server webhooks` and `alerts`, the board,
   * or `server.alerts`): the addresses webhooks may reach, the public address alerts link cards
   * to, timeouts and retries. `false`: this instance delivers none. @default {}
   */
  alerts?: AlertOptions | false;
  /** The alerts' store; with a custom `store`, alerts are off without one. @default undefined */
  alertStore?: AlertStore;
  /** Serve the board (view and triage cards) under `/board` (admin tokens only). @default false */
  board?: boolean;
  /** The board's store; needed with `store`, else the one `databaseUrl` or `dataDir` selects. @default undefined */
  boardStore?: BoardStore;
  /**
   * Reverse proxies in front of the service (addresses or subnets, `10.0.0.0/8`): a request from
   * one is the client its `X-Forwarded-For` names (the nearest address that is not a proxy), for
   * the board's throttle of wrong admin tokens. Never trusted from anyone else. @default []
   */
  trustedProxies?: readonly string[];
  /**
   * The request headers must arrive within this many ms of the connection (or of the previous
   * answer on a kept-alive one); a stalled one is answered 408 and closed. @default 10000
   */
  headersTimeoutMs?: number;
  /**
   * A request body must arrive within this many ms of the headers; a stalled one is answered 408
   * and its connection closed. @default 30000
   */
  bodyTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this many ms. @default 10000 */
  keepAliveTimeoutMs?: number;
  /** Open connections at most; further ones are closed on arrival. @default 4096 */
  maxConnections?: number;
  /**
   * Once half of `maxConnections` are open, a client address (IPv6: a /64) holding this many gets
   * no more (new ones are closed on arrival), so one client cannot take every connection. Behind
   * a reverse proxy every connection comes from the proxy: raise it to `maxConnections` there.
   * @default 256
   */
  maxConnectionsPerAddress?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  admin: Admin;
  /** Present when the board is on: its address and the admin tokens that open it. */
  board?: { url: string; adminTokens: AdminTokens };
  /** Alert setup (webhooks, rules, tests, the delivery log), when alerts are on. */
  alerts?: AlertAdmin;
  /** Queues the due notification digests, then hands the outbox to SMTP (tests). */
  flushMail(): Promise<void>;
  /** Plans the due alerts and delivers what is due now, waiting for it (tests). */
  flushAlerts(): Promise<void>;
  close(): Promise<void>;
}

function mergePlans(overrides: ServerOptions['plans'] = {}): Record<Plan, PlanLimits> {
  const out = {} as Record<Plan, PlanLimits>;
  for (const plan of Object.keys(PLANS) as Plan[])
    out[plan] = { ...PLANS[plan], ...overrides[plan] };
  return out;
}

/** Starts the ingestion service; the answer to every accepted report is sent after its commit. */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const now = opts.now ?? Date.now;
  const dataDir = resolve(opts.dataDir ?? process.env.SERVICE_DATA_DIR ?? './.data');
  const plans = mergePlans(opts.plans);
  const variantCap = opts.variantCap ?? LIMITS.variantCap;
  const databaseUrl = opts.databaseUrl ?? process.env.DATABASE_URL;
  if (opts.board && opts.store && !opts.boardStore) {
    throw new TypeError('With a custom `store`, the board needs a `boardStore` too.');
  }
  const opened =
    opts.store ??
    (await openStore({
      databaseUrl,
      dataDir,
      durability: opts.durability,
      now,
      plans,
      variantCap,
      projectQuotaShare: LIMITS.projectQuotaShare,
      tagsPerCard: LIMITS.tagsPerCard,
    }));
  // Every store call goes through `availability`: an unreachable database becomes 503 answers with
  // Retry-After, one log line per outage, and a readiness answer (`/health/ready`).
  const availability = createAvailability({ ping: opened.ping && (() => opened.ping!()) });
  const store = availability.guard(opened);
  const { boardStore, sourceMaps, alerts } = await openBesideStore(opts, {
    opened,
    availability,
    databaseUrl,
    dataDir,
    now,
  });
  const mail = opts.smtp ? startMailSender(store, opts.smtp) : undefined;
  const notifier = startNotifier(store, {
    ...opts.notifications,
    now,
    onQueued: mail && (() => void mail.kick()),
  });
  const app = buildApp({
    store,
    availability,
    now,
    skewSeconds: LIMITS.timestampSkewSeconds,
    onMailQueued: mail ? () => void mail.kick() : undefined,
    mapReport: sourceMaps && ((projectId, report) => sourceMaps.mapper.map(projectId, report)),
    sourceMaps: sourceMaps && {
      uploads: sourceMaps.uploads,
      fileBytesMax: sourceMaps.options.fileBytesMax,
    },
    limits: httpLimits(opts),
    board: boardStore && {
      store: boardStore,
      alerts: alerts?.admin,
      now,
      plans,
      projectQuotaShare: LIMITS.projectQuotaShare,
      variantCap,
      sourceMaps: sourceMaps?.store,
      trustedProxies: opts.trustedProxies,
    },
  });
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ host, port: opts.port ?? 8787 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 8787);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    admin: createAdmin(store),
    alerts: alerts?.admin,
    board: boardStore && {
      url: `http://${urlHost}:${port}/board`,
      adminTokens: createAdminTokens(boardStore, now),
    },
    async flushMail() {
      await notifier.tick();
      await mail?.kick();
    },
    flushAlerts: async () => alerts?.flush(),
    async close() {
      await closeHttp(app.server, () => app.close());
      await notifier.close();
      await alerts?.close();
      await mail?.close();
      await boardStore?.close();
      await sourceMaps?.close();
      await store.close();
    },
  };
}

const httpLimits = (opts: ServerOptions) => ({
  headersTimeoutMs: opts.headersTimeoutMs ?? 10_000,
  bodyTimeoutMs: opts.bodyTimeoutMs ?? 30_000,
  keepAliveTimeoutMs: opts.keepAliveTimeoutMs ?? 10_000,
  maxConnections: opts.maxConnections ?? 4096,
  maxConnectionsPerAddress: opts.maxConnectionsPerAddress ?? 256,
});

/**
 * The stores beside the ingestion store, guarded as it is: the board's (when on), source maps' and
 * alerts' (unless off; alerts also start delivering). A start that fails here (the database went away meanwhile) closes what it opened,
 * so `svc-server serve` can try again.
 */
async function openBesideStore(
  opts: ServerOptions,
  at: {
    opened: Store;
    availability: ReturnType<typeof createAvailability>;
    databaseUrl: string | undefined;
    dataDir: string;
    now: () => number;
  },
) {
  const { availability, databaseUrl, dataDir } = at;
  let boardStore: BoardStore | undefined;
  let sourceMaps: Awaited<ReturnType<typeof startSourceMaps>> | undefined;
  try {
    const openedBoard = opts.board
      ? (opts.boardStore ?? (await openBoardStore({ databaseUrl, dataDir })))
      : undefined;
    boardStore = openedBoard && availability.guard(openedBoard);
    sourceMaps = await startSourceMaps({
      options: opts.sourceMaps,
      store: opts.sourceMapStore,
      customStore: opts.store !== undefined,
      databaseUrl,
      dataDir,
      now: at.now,
      guard: (target) => availability.guard(target),
    });
    const guard = <T extends object>(target: T) => availability.guard(target);
    const alerts = await startAlertsOf(opts, { databaseUrl, dataDir, now: at.now, guard });
    return { boardStore, sourceMaps, alerts };
  } catch (error) {
    if (!opts.store) await closeQuietly(at.opened);
    if (boardStore && !opts.boardStore) await closeQuietly(boardStore);
    if (sourceMaps) await closeQuietly(sourceMaps);
    throw error;
  }
}

/** The alerts of a start: off with `alerts: false`, or with a custom `store` and no `alertStore`. */
function startAlertsOf(
  opts: ServerOptions,
  where: Pick<Parameters<typeof startAlerts>[0], 'databaseUrl' | 'dataDir' | 'now' | 'guard'>,
): Promise<RunningAlerts | undefined> {
  if (opts.alerts === false || (opts.store && !opts.alertStore)) return Promise.resolve(undefined);
  return startAlerts({ ...where, store: opts.alertStore, options: opts.alerts ?? {} });
}

/** Requests in flight at close get this long to finish; then their connections are closed. */
const HTTP_CLOSE_GRACE_MS = 2000;

/**
 * Stops accepting and ends the HTTP side: idle connections at once (Fastify), requests in flight
 * within HTTP_CLOSE_GRACE_MS (a slow upload would otherwise hold close() up to its body timeout).
 */
async function closeHttp(server: { closeAllConnections(): void }, close: () => Promise<unknown>) {
  const force = setTimeout(() => server.closeAllConnections(), HTTP_CLOSE_GRACE_MS);
  try {
    await close();
  } finally {
    clearTimeout(force);
  }
}

/** Closes what a failed start opened; the start's own error is the one to report. */
async function closeQuietly(store: { close(): unknown }): Promise<void> {
  try {
    await store.close();
  } catch {
    // the start's error says what went wrong
  }
}
