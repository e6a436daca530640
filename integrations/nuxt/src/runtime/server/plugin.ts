import { initShared, type SvcOptions } from '@svc/runtime';
import { failureReport, firstSet, readServerSettings, redact } from '@svc/runtime/kit';
import { defineNitroPlugin, useRuntimeConfig } from 'nitropack/runtime';
import { sharedSettings, privateSettings, publicSettings, toSdkOptions } from '../shared/config';
import { shouldReportServerError, unwrapError } from '../shared/skip';
import { type ErrorContext, serverFailure } from '../shared/title';
import { flushOnShutdown } from './shutdown';

/**
 * Nitro side: one shared client, created when the server starts (so `NUXT_*` and `SERVICE_*`
 * variables apply without a rebuild, and no `--import` preload is needed), from the private
 * runtime config (`NUXT_SERVICE_KEY_ID`, `NUXT_SERVICE_SIGNING_SECRET`), then the `SERVICE_*`
 * variables every server side reads, then the public runtime config (all but the publishable key),
 * then the mode. Server errors reach the Nitro `error` hook and are reported as the
 * failure kinds of every integration; H3Error 3xx/4xx are client mistakes and make no card.
 */
export default defineNitroPlugin((nitroApp) => {
  try {
    const config = useRuntimeConfig();
    const { serviceUrl, ...settings } = firstSet<SvcOptions & { serviceUrl?: string }>(
      privateSettings(config),
      readServerSettings(process.env),
      sharedSettings(publicSettings(config.public)),
      { environment: import.meta.dev ? 'development' : 'production' },
    );
    const client = initShared({ ...toSdkOptions(config.public?.svc), ...settings }, { serviceUrl });

    nitroApp.hooks.hook('error', (error: unknown, context: ErrorContext) => {
      try {
        if (!shouldReportServerError(error)) return;
        const cause = unwrapError(error);
        const { kind, where } = serverFailure(context);
        const report = failureReport(kind, 'nuxt', cause, where);
        client[report.method](report.title, cause, report.tags);
      } catch {
        // Never throw into Nitro's error path.
      }
    });

    flushOnShutdown(client, nitroApp, config.svc?.shutdownTimeoutMs ?? 3000);
  } catch (error) {
    // A broken setup must not stop the server from starting.
    console.warn('[svc] Nitro plugin disabled:', redact((error as Error)?.message, []));
  }
});
