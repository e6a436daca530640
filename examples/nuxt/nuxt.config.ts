// Svc in a Nuxt 4 app: one module entry. Keys come from the environment at run time:
//   NUXT_PUBLIC_SERVICE_API_KEY   (browser, publishable svc_pub_...)
//   NUXT_SERVICE_KEY_ID           (Nitro server, svck_...)
//   NUXT_SERVICE_SIGNING_SECRET   (Nitro server, svc_sec_...)
export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  modules: ['@svc/nuxt'],
  svc: {
    environment: 'example',
    // Hidden client source maps, registered for the SDK's browser resolver.
    sourceMaps: true,
  },
  devtools: { enabled: false },
  telemetry: false,
});
