import { initShared } from '@svc/runtime';
import { defineNitroPlugin, useRuntimeConfig } from 'nitropack/runtime';
import { toSdkOptions } from '../shared/options';
import { shouldReportServerError, unwrapError } from '../shared/skip';
import { patternFromPath, serverTitle } from '../shared/title';
import { flushOnShutdown } from './shutdown';

interface ErrorContext {
  event?: {
    method?: string;
    path?: string;
    context?: { matchedRoute?: { path?: string }; svcRoute?: string };
  };
  tags?: string[];
}

/**
 * Nitro side: one shared client from the *private* runtime config, read when the server starts
 * (so `NUXT_SERVICE_*` variables apply without a rebuild, and no `--import` preload is needed).
 * Server errors reach the Nitro `error` hook; H3Error 3xx/4xx are client mistakes and skipped.
 */
export default defineNitroPlugin((nitroApp) => {
  const config = useRuntimeConfig();
  const client = initShared({
    ...toSdkOptions(config.public.svc),
    keyId: config.serviceKeyId || undefined,
    signingSecret: config.serviceSigningSecret || undefined,
  });

  nitroApp.hooks.hook('error', (error: unknown, context: ErrorContext) => {
    try {
      if (!shouldReportServerError(error)) return;
      const event = context?.event;
      const pattern = event
        ? (event.context?.svcRoute ??
          (event.context?.matchedRoute?.path !== '/**'
            ? event.context?.matchedRoute?.path
            : undefined) ??
          patternFromPath(event.path ?? '/'))
        : `(${context?.tags?.join(',') || 'no request'})`;
      const tags = ['nuxt', 'server', ...(event?.method ? [`method:${event.method}`] : [])];
      client.major(serverTitle(event?.method, pattern), unwrapError(error), tags);
    } catch {
      // Never throw into Nitro's error path.
    }
  });

  flushOnShutdown(client, nitroApp, config.svc?.shutdownTimeoutMs ?? 3000);
});
