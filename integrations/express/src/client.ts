import { initShared, type SvcClient } from '@svc/runtime';
import { clientOptions, clientSettings, type SvcExpressOptions } from './options.ts';

/** The process-wide client (the runtime's shared carrier): created on first use, then reused. */
export function sharedClient(options: SvcExpressOptions = {}): SvcClient {
  return initShared(clientOptions(options), clientSettings(options));
}
