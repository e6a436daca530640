import { createAdmin } from '../admin.ts';
import { AddressPolicyError } from '../alerts/address.ts';
import { AlertSetupError } from '../alerts/setup.ts';
import { LIMITS, PLANS } from '../generated/limits.gen.ts';
import { SOURCEMAPS_PATH, TASKS_PATH } from '../generated/service.gen.ts';
import { openStore, redactUrl } from '../store/open.ts';
import { type Flags, parse } from './args.ts';
import { errorLine } from './errors.ts';
import { runAdminCommand } from './commands.ts';
import { databaseUrlOf, dataDirOf } from './shared.ts';

export const USAGE = `svc-server: the Svc reference ingestion service

Usage: svc-server <command> [options]      (data dir: --data-dir, else $SERVICE_DATA_DIR, else ./.data)
       every command takes --database-url postgres://… (else $DATABASE_URL) to use PostgreSQL

  init                                       create the database (SQLite) or migrate it (PostgreSQL)
  serve [--host 127.0.0.1] [--port 8787]     serve POST ${TASKS_PATH}
        [--durability process|power] [--smtp-host H --smtp-port P --smtp-from ADDR]
        [--board]                            also serve the board (view, triage) under /board
        [--trusted-proxy ADDR ...]           reverse proxies (addresses, CIDRs) whose
                                             X-Forwarded-For names the client (board sign-in;
                                             else $SERVICE_TRUSTED_PROXIES, comma-separated)
        [--sourcemap-file-bytes N] [--sourcemap-project-bytes N] [--sourcemap-releases N]
        [--sourcemap-segments N] [--sourcemap-cache-bytes N] [--no-sourcemaps]
                                             source-map limits (server/README.md); also serves
                                             POST ${SOURCEMAPS_PATH}
        [--public-url URL]                   the address alerts link cards to (else $SERVICE_PUBLIC_URL)
        [--webhook-allow A] [--webhook-deny A]   addresses webhooks may / may not reach (CIDRs or
                                             loopback, private, link-local, metadata, all, none)
  account create --name N --plan hobby|indie|professional|team [--member email:role ...]
  account list
  project create --account ID --name N
  project list [--account ID]
  project pause|resume|archive ID
  key create --project ID --type publishable|secret|encryption --name N [--origin O ...]
  key list --project ID
  key revoke ID
  cards list --project ID [--search WORDS] [--limit N] [--after ID] [--json]
                                             by id, 100 a page (at most 1000); with status,
                                             regressions, last_regressed_at; --search as the
                                             board's (title, stack, file, tags)
  cards set-status --card ID --status todo|in_progress|done|ignored
        [--env E] [--release R | --current-release]   resolve in an environment (production)
                                             and from a release on (older ones leave it done)
  notify on --project ID [--to EMAIL ...]    e-mail new cards and regressions (batched);
                                             without --to: every member of the account
  notify off --project ID | notify list
  mail list [--account ID] [--json]          quota warnings and notification digests
  sourcemaps list --project ID [--release R] [--json]   maps builds uploaded (release, path, size,
                                             debug ID, uploaded at)
  sourcemaps delete --project ID (--release R | --id N)
  webhooks add --project ID --url URL [--name N] [--format json|slack]
                                             where alerts go; a JSON webhook's secret is printed once
  webhooks list --project ID | webhooks remove ID
  alerts add --project ID --webhook ID --on new|regression|frequency [--name N]
        [--more-than N --minutes M] [--env E,E] [--severity S ...]   a rule (window: --minutes, 60)
  alerts list --project ID | alerts remove ID
  alerts test ID                             send the rule's test alert now (exit 1 if not delivered)
  alerts log --project ID [--before ID]      deliveries: rule, card, state, attempts, next retry
  admin-token create [--name N] [--json]  a token that opens the board (printed once)
  admin-token list [--json]
  admin-token revoke ID
`;

export async function openAdmin(flags: Flags) {
  const store = await openStore({
    databaseUrl: databaseUrlOf(flags),
    dataDir: dataDirOf(flags),
    now: Date.now,
    plans: PLANS,
    variantCap: LIMITS.variantCap,
    projectQuotaShare: LIMITS.projectQuotaShare,
    // A command waits for the database as long as it takes (listing a large project may be slow).
    adminDeadlineMs: 0,
  });
  return { admin: createAdmin(store), close: () => store.close() };
}

/** Entry point of `svc-server`; exits 1 with a clear message on any usage or admin error. */
export async function main(argv: string[]): Promise<void> {
  try {
    const { values: flags, positionals } = parse(argv);
    const [command, sub, arg] = positionals;
    if (flags.help || !command || command === 'help') {
      process.stdout.write(USAGE);
      return;
    }
    // Loaded lazily: admin commands do not pay for the HTTP stack.
    if (command === 'serve') return await (await import('./serve.ts')).runServe(flags);
    if (command === 'admin-token') {
      return await (await import('./admin-token.ts')).runAdminToken(sub, arg, flags);
    }
    if (command === 'sourcemaps') {
      return await (await import('./sourcemaps.ts')).runSourceMaps(sub, flags);
    }
    if (command === 'webhooks' || command === 'alerts') {
      return await (await import('./alerts.ts')).runAlerts(command, sub, arg, flags);
    }
    if (command === 'cards' && sub === 'set-status') {
      return await (await import('./set-status.ts')).runSetStatus(flags);
    }
    if (command === 'init') {
      await (await openAdmin(flags)).close();
      const url = databaseUrlOf(flags);
      console.log(
        url
          ? `Initialised ${redactUrl(url)} (schema up to date)`
          : `Initialised ${dataDirOf(flags)}/svc.sqlite`,
      );
      return;
    }
    const { admin, close } = await openAdmin(flags);
    try {
      await runAdminCommand(admin, command, sub, arg, flags);
    } finally {
      await close();
    }
  } catch (err) {
    const { line, usage } = errorLine(err, databaseUrlOrNone(argv), [
      AlertSetupError,
      AddressPolicyError,
    ]);
    console.error(`svc-server: ${line}${usage ? '\nRun "svc-server help" for usage.' : ''}`);
    if (process.env.SVC_DEBUG === '1' && err instanceof Error) console.error(err.stack);
    process.exitCode = 1;
  }
}

/** The database URL the command line (or the environment) names, if it parses. */
function databaseUrlOrNone(argv: string[]): string | undefined {
  try {
    return databaseUrlOf(parse(argv).values);
  } catch {
    return undefined;
  }
}
