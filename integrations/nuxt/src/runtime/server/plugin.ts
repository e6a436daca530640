import { initShared } from '@svc/runtime';
import { defineNitroPlugin, useRuntimeConfig } from 'nitropack/runtime';
import { toSdkOptions } from '../shared/options';
import { shouldReportServerError, unwrapError } from '../shared/skip';
import { errorTitle } from '@svc/runtime/kit';
import { type ErrorContext, serverErrorPlace } from '../shared/title';
import { flushOnShutdown } from './shutdown';

/**
 * Nitro side: one shared client from the *private* runtime config and `SERVICE_URL`, read when the server starts
 * (so `NUXT_SERVICE_*` variables apply without a rebuild, and no `--import` preload is needed).
 * Server errors reach the Nitro `error` hook; H3Error 3xx/4xx are client mistakes and skipped.
 */
export default defineNitroPlugin((nitroApp) => {
  try {
    const config = useRuntimeConfig();
    const client = initShared(
      {
        ...toSdkOptions(config.public?.svc),
        keyId: config.serviceKeyId || undefined,
        signingSecret: config.serviceSigningSecret || undefined,
      },
      // The server may reach the service at another (internal) address than the browser.
      { serviceUrl: process.env.SERVICE_URL || config.public?.serviceUrl || undefined },
    );

    nitroApp.hooks.hook('error', (error: unknown, context: ErrorContext) => {
      try {
        if (!shouldReportServerError(error)) return;
        const method = context?.event?.method;
        const tags = ['nuxt', 'server', ...(method ? [`method:${method}`] : [])];
        const cause = unwrapError(error);
        client.major(errorTitle(cause, serverErrorPlace(context)), cause, tags);
      } catch {
        // Never throw into Nitro's error path.
      }
    });

    flushOnShutdown(client, nitroApp, config.svc?.shutdownTimeoutMs ?? 3000);
  } catch (error) {
    // A broken setup must not stop the server from starting.
    console.warn('[svc] Nitro plugin disabled:', (error as Error)?.message);
  }
});
