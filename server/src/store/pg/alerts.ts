import type { AlertStore } from '../alert-types.ts';
import { createPgDeliveries } from './alert-deliveries.ts';
import { createPgPlan } from './alert-plan.ts';
import { createPgAlertSetup } from './alert-setup.ts';
import { migratePg } from './migrations.ts';
import { createPgPool, withinDeadline } from './pool.ts';

/** Each alert query or transaction is given up after this (the caller sees it unavailable). */
const ALERT_DEADLINE_MS = 5000;

/**
 * Alerts on PostgreSQL, with a small pool of their own: every instance plans and delivers, and
 * claims (`FOR UPDATE SKIP LOCKED`, then `claimed_until`) make each delivery one instance's at a
 * time; a crashed instance's claims lapse and another takes them over.
 */
export async function openPgAlertStore(opts: {
  url: string;
  now?: () => number;
}): Promise<AlertStore> {
  const pool = createPgPool({ url: opts.url, max: 3 });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = withinDeadline(pool, ALERT_DEADLINE_MS);
  return {
    ...createPgAlertSetup(db, opts.now ?? Date.now),
    ...createPgDeliveries(db),
    planAlerts: createPgPlan(db),
    close: () => pool.end(),
  };
}
