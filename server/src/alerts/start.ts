import type { AlertStore } from '../store/alert-types.ts';
import { openAlertStore } from '../store/open.ts';
import { type AlertAdmin, createAlertAdmin } from './admin.ts';
import { AlertDeliverer, type AlertOptions, delivererSettings, publicUrlOf } from './deliverer.ts';

/** The alerts of a running service: their setup, and the loop delivering them. */
export interface RunningAlerts {
  admin: AlertAdmin;
  /** Plans and delivers what is due now, and waits for it (tests, tools). */
  flush(): Promise<void>;
  /** Stops delivering (attempts in flight aborted, their claims released), then closes the store. */
  close(): Promise<void>;
}

export interface StartAlertsOptions {
  /** A ready store; else the one `databaseUrl` or `dataDir` selects. */
  store?: AlertStore;
  databaseUrl?: string;
  dataDir: string;
  now: () => number;
  /** Wraps the store (the service's availability guard). */
  guard: <T extends object>(store: T) => T;
  options: AlertOptions;
}

/**
 * Opens the alerts' store and starts delivering. Settings are read first (a bad address policy
 * fails the start before anything is opened).
 */
export async function startAlerts(opts: StartAlertsOptions): Promise<RunningAlerts> {
  const settings = delivererSettings(opts.options, opts.now);
  const opened =
    opts.store ??
    (await openAlertStore({ databaseUrl: opts.databaseUrl, dataDir: opts.dataDir, now: opts.now }));
  const store = opts.guard(opened);
  const deliverer = new AlertDeliverer(store, settings).start();
  return {
    admin: createAlertAdmin(store, {
      policy: settings.policy,
      timeoutMs: settings.timeoutMs,
      now: opts.now,
      publicUrl: publicUrlOf(opts.options),
    }),
    async flush() {
      await deliverer.tick();
      await deliverer.idle();
    },
    async close() {
      await deliverer.close();
      await store.close();
    },
  };
}
