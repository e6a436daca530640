import type { SvcClient } from '@svc/runtime';
import { carrierSlot, flushWithin } from '@svc/runtime/kit';

interface Hookable {
  hooks: { hook(name: 'close', fn: () => Promise<void>): unknown };
}

type Proc = Pick<NodeJS.Process, 'once' | 'listenerCount' | 'kill' | 'pid'>;

/**
 * Flushes within `timeoutMs` on Nitro `close` (Nitro's own graceful shutdown calls it on SIGTERM)
 * and on SIGTERM directly, for when Nitro's shutdown is disabled (`NITRO_SHUTDOWN_DISABLED`).
 * Our SIGTERM listener must not keep the process alive: when it is the only listener it re-sends
 * SIGTERM after the flush, so the default termination still happens.
 */
export function flushOnShutdown(
  client: Pick<SvcClient, 'flush'>,
  nitroApp: Hookable,
  timeoutMs: number,
  proc: Proc = process,
): void {
  const flush = () => flushWithin(client, timeoutMs).then(() => undefined);
  nitroApp.hooks.hook('close', flush);

  // Dev server reloads: one listener per process (the global carrier's slot).
  const state = carrierSlot('nuxtShutdown', () => ({ sigterm: false }));
  if (state.sigterm) return;
  state.sigterm = true;
  proc.once('SIGTERM', () => {
    flush().then(() => {
      if (proc.listenerCount('SIGTERM') === 0) proc.kill(proc.pid, 'SIGTERM');
    });
  });
}
