import { initShared, type SvcClient } from '@svc/runtime';
import { runtimeEnvironment } from './environment.ts';
import { clientConfig, type SvcHonoOptions } from './options.ts';

/**
 * The isolate's (or process's) client, shared by every request, Durable Object and copy of the
 * SDK (the runtime's carrier): made on first use from `options` and the bindings or environment.
 */
export function sharedClient(options: SvcHonoOptions, bindings: unknown): SvcClient {
  const config = clientConfig(options, runtimeEnvironment(bindings));
  return initShared(config.options, config.settings);
}
