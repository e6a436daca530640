// Deno wiring: a server process on the build that reads no file (the browser's location capture and
// describe chunk: Deno on the Node build asked at a terminal for read access when a report was
// located), with a server's exit: the client's exit flush (`EXIT`, for the integrations' signal and
// crash handlers) and the one exit budget of the process. No offline queue, no unload hooks.
import { processExitBudget, setExitFlush } from '../core/exit.ts';
import type { Platform, ShutdownHooks } from '../core/port.ts';
import { BROWSER_OPTION_DEFAULTS } from '../generated/options.gen.ts';
import { captureLocation } from '../location/browser.ts';

/** Node's codes for the failures Deno's fetch names only in its cause's message. */
const CODES: [RegExp, string][] = [
  [/connection refused/i, 'ECONNREFUSED'],
  [/dns error/i, 'ENOTFOUND'],
];

/**
 * A failed fetch with Node's `code` on it where Deno's message names one (`tcp connect error:
 * Connection refused (os error 111)`), so that the warnings say what happened.
 */
export function withCode(error: unknown): unknown {
  try {
    const said = `${(error as { cause?: unknown })?.cause ?? ''}`;
    const known = CODES.find(([pattern]) => pattern.test(said));
    if (known && (error as { code?: unknown }).code === undefined)
      Object.assign(error as object, { code: known[1] });
  } catch {
    // a frozen or odd error stays as it is
  }
  return error;
}

/** The hooks of the client being created (`attach` runs inside `createCoreClient`). */
let attached: ShutdownHooks | undefined;

/** Sets the exit flush of `client`, the client `attach` was just called for. */
export function withExitFlush<T extends object>(client: T): T {
  if (attached) setExitFlush(client, attached);
  attached = undefined;
  return client;
}

export const denoPlatform: Platform = {
  captureLocation,
  loadDescribe: () => import('../location/browser-describe.ts'),
  optionDefaults: BROWSER_OPTION_DEFAULTS,
  fetch: (input, init) =>
    fetch(input, init).catch((error: unknown) => {
      throw withCode(error);
    }),
  attach(hooks) {
    attached = hooks;
    hooks.pipeline.context.budget = processExitBudget();
    return undefined;
  },
};
