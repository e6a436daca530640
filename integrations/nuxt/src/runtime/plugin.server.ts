import { defineNuxtPlugin } from '#app';
import { type RouterLike, vuePattern } from './shared/title';

/**
 * SSR side of the Vue app: when rendering fails, record the Vue route pattern on the request so
 * the Nitro plugin titles the card `GET /orders/:id` instead of the renderer's catch-all `/**`.
 * Reporting itself happens once, in the Nitro `error` hook.
 */
export default defineNuxtPlugin({
  name: 'svc:ssr-route',
  setup(nuxtApp) {
    const record = () => {
      const event = nuxtApp.ssrContext?.event;
      const route = (nuxtApp.$router as RouterLike | undefined)?.currentRoute?.value;
      const pattern = vuePattern(route?.matched?.at(-1)?.path);
      if (event && pattern) event.context.svcRoute = pattern;
    };
    nuxtApp.hook('vue:error', record);
    nuxtApp.hook('app:error', record);
  },
});
