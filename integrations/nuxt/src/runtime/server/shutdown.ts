import type { SvcClient } from '@svc/runtime';

interface Hookable {
  hooks: { hook(name: 'close', fn: () => Promise<void>): unknown };
}

type Proc = Pick<NodeJS.Process, 'once' | 'listenerCount' | 'kill' | 'pid'>;

const INSTALLED = Symbol.for('svc.nuxt.sigterm');

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
  const flush = () => flushWithin(client, timeoutMs);
  nitroApp.hooks.hook('close', flush);

  const carrier = globalThis as Record<symbol, unknown>;
  if (carrier[INSTALLED]) return; // dev server reloads: one listener per process
  carrier[INSTALLED] = true;
  proc.once('SIGTERM', () => {
    flush().then(() => {
      if (proc.listenerCount('SIGTERM') === 0) proc.kill(proc.pid, 'SIGTERM');
    });
  });
}

/** Resolves after the flush or after `timeoutMs`, whichever is first; never rejects. */
export function flushWithin(client: Pick<SvcClient, 'flush'>, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  const flushed = Promise.resolve()
    .then(() => client.flush({ timeoutMs }))
    .then(
      () => undefined,
      () => undefined,
    );
  return Promise.race([flushed, deadline]).finally(() => clearTimeout(timer));
}
