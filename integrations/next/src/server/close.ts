// Reports made before `next start` ends are delivered: Next's own shutdown waits for them. On
// SIGTERM (or SIGINT) `next start`, and the standalone server, stop accepting, wait for the requests
// in flight, then close the Next server, which runs its close listeners (`onServerClose`: its own
// `after()` work is one) and awaits them all before `process.exit()`. Svc's exit flush is one of
// those listeners, so nothing races Next's signal handler: reports are delivered when the service
// is up, and held at most within the process's exit budget when it is not. The listener is added
// through Next's render server (`propagateServerField(dir, 'onServerClose', [listener])`, the call
// Next's own tooling makes to reach its server), keyed by the project directory the server runs in
// (`next start` and the standalone server both run in it). A custom server has none: its own
// shutdown is the app's to await (`flushWithin`).

import type { SvcClient } from '@svc/runtime';
import { carrierSlot, flushWithin } from '@svc/runtime/kit';

/** The one function of Next's render server used here (`next/dist/server/lib/render-server`). */
export interface RenderServer {
  propagateServerField(dir: string, field: string, args: unknown[]): Promise<void>;
}

type Builtin = (id: string) => unknown;

/** Next's render server as `next start` loaded it (the module instance of the project's `next`). */
export function projectRenderServer(builtin: Builtin): { dir: string; server: RenderServer } {
  const { realpathSync } = builtin('node:fs') as typeof import('node:fs');
  const { join } = builtin('node:path') as typeof import('node:path');
  const { createRequire } = builtin('node:module') as typeof import('node:module');
  // As `next start` resolves it (getProjectDir: the real path of the directory it runs in).
  const dir = realpathSync(process.cwd());
  const load = createRequire(join(dir, 'package.json'));
  return { dir, server: load('next/dist/server/lib/render-server.js') as RenderServer };
}

/**
 * Adds `client`'s exit flush (at most `timeoutMs`, and the process's exit budget) to the close
 * listeners Next's server awaits before it exits. Once per process; never throws. Resolves true
 * when Next took the listener, false when there is no such server here (`log` says why).
 */
export async function flushOnServerClose(
  client: SvcClient,
  timeoutMs: number,
  log: (message: string) => void,
  find: () => { dir: string; server: RenderServer } = () =>
    projectRenderServer((id) => process.getBuiltinModule?.(id)),
): Promise<boolean> {
  const state = carrierSlot('nextClose', () => ({ added: false }));
  if (state.added) return true;
  state.added = true;
  try {
    const { dir, server } = find();
    const listener = () => flushWithin(client, timeoutMs).then(() => undefined);
    await server.propagateServerField(dir, 'onServerClose', [listener]);
    log(`[svc/next] reports are flushed when the Next server in ${dir} closes`);
    return true;
  } catch (error) {
    state.added = false;
    log(
      `[svc/next] no Next server to wait for the last reports (${(error as Error)?.message}); ` +
        'flush them in your own shutdown (flushWithin of @svc/runtime/kit)',
    );
    return false;
  }
}
