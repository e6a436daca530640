import type { Application } from 'express';
import type { SvcClient } from '@svc/runtime';
import { sharedClient } from './client.ts';
import { errorHandler } from './error-handler.ts';
import type { SvcExpressOptions } from './options.ts';
import { installProcessHandlers } from './process-handlers.ts';

/**
 * Two-line setup: call after your routes (and before your own error handler).
 * Creates (or reuses) the shared client from options and the environment, mounts `errorHandler`,
 * and, unless `processHandlers: false`, installs the process handlers once per process.
 * Returns the client.
 */
export function setupErrorHandler(app: Application, options: SvcExpressOptions = {}): SvcClient {
  const client = sharedClient(options);
  app.use(errorHandler(options, client));
  // Once per process, whichever integration or copy of a package asks (the kit keeps count).
  if (options.processHandlers !== false) installProcessHandlers(client, options);
  return client;
}
