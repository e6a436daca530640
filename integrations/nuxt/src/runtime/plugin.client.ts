import { initShared } from '@svc/runtime';
import { defineNuxtPlugin, useRuntimeConfig } from '#app';
import { toSdkOptions } from './shared/options';
import { shouldReportClientError } from './shared/skip';
import { browserPlace, errorTitle } from '@svc/runtime/kit';
import { patternFromPath, type RouterLike, vuePattern } from './shared/title';

/**
 * Browser side: one shared client from the *public* runtime config, Vue errors reported through
 * the `vue:error` and `app:error` hooks (Nuxt's own `errorHandler` stays in place), and a flush
 * whenever the page is hidden.
 */
export default defineNuxtPlugin({
  name: 'svc:client',
  enforce: 'pre',
  setup(nuxtApp) {
    try {
      const config = useRuntimeConfig().public;
      const client = initShared(
        { ...toSdkOptions(config.svc), apiKey: config.serviceApiKey || undefined },
        { serviceUrl: config.serviceUrl || undefined },
      );
      const seen = new WeakSet<object>();

      const report = (error: unknown) => {
        try {
          if (!shouldReportClientError(error)) return;
          // The same error can pass both hooks (for example a setup error during hydration).
          if (error && typeof error === 'object') {
            if (seen.has(error)) return;
            seen.add(error);
          }
          const route = (nuxtApp.$router as RouterLike | undefined)?.currentRoute?.value;
          const pattern =
            vuePattern(route?.matched?.at(-1)?.path) ??
            (route?.path && patternFromPath(route.path));
          client.major(errorTitle(error, browserPlace(pattern)), error, ['nuxt', 'client']);
        } catch {
          // Never throw into the host app.
        }
      };
      nuxtApp.hook('vue:error', (error) => report(error));
      nuxtApp.hook('app:error', (error) => report(error));

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
