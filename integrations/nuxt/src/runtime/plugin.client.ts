import { initShared, type SvcOptions } from '@svc/runtime';
import { failureReport, firstSet, listenWindowErrors, type ReportedKind } from '@svc/runtime/kit';
import { defineNuxtPlugin, useRuntimeConfig } from '#app';
import { mapsUploaded, publicSettings, toSdkOptions } from './shared/config';
import { shouldReportClientError } from './shared/skip';

/**
 * Browser side: one shared client from the *public* runtime config (`NUXT_PUBLIC_SERVICE_*`);
 * Vue errors (Nuxt's `vue:error` and `app:error` hooks; Nuxt's own `errorHandler` stays in place)
 * as the `error-boundary` failure of every integration, window errors and unhandled rejections as
 * `browser-error` / `browser-rejection`; a flush whenever the page is hidden.
 */
export default defineNuxtPlugin({
  name: 'svc:client',
  enforce: 'pre',
  setup(nuxtApp) {
    try {
      const config = useRuntimeConfig().public;
      const { serviceUrl, ...settings } = firstSet<SvcOptions & { serviceUrl?: string }>(
        publicSettings(config),
        { environment: import.meta.dev ? 'development' : 'production' },
      );
      const client = initShared(
        { ...toSdkOptions(config.svc), ...settings },
        { serviceUrl, uploadedSourceMaps: mapsUploaded(config.svc) },
      );
      const seen = new WeakSet<object>();

      const report = (error: unknown, kind: ReportedKind) => {
        try {
          if (!shouldReportClientError(error)) return;
          // The same error can pass several hooks (for example a setup error during hydration).
          if (error && typeof error === 'object') {
            if (seen.has(error)) return;
            seen.add(error);
          }
          const card = failureReport(kind, 'nuxt', error, { ui: 'Vue' });
          client[card.method](card.title, error, card.tags);
        } catch {
          // Never throw into the host app.
        }
      };
      nuxtApp.hook('vue:error', (error) => report(error, 'error-boundary'));
      nuxtApp.hook('app:error', (error) => report(error, 'error-boundary'));
      listenWindowErrors(window, report);

      const flush = () => {
        client.flush().catch(() => {});
      };
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') flush();
      });
      window.addEventListener('pagehide', flush);

      return { provide: { svc: client } };
    } catch (error) {
      // A broken setup must not break the app.
      console.warn('[svc] client plugin disabled:', (error as Error)?.message);
    }
  },
});
