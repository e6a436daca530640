// Svc in a Nuxt 4 app: one module entry. The service address and keys come from the environment
// at run time, so one build runs anywhere:
//   NUXT_PUBLIC_SERVICE_URL       (your Svc service, both sides; Nitro reads SERVICE_URL first)
//   NUXT_PUBLIC_SERVICE_API_KEY   (browser, publishable svc_pub_...)
//   NUXT_SERVICE_KEY_ID           (Nitro server, svck_...)
//   NUXT_SERVICE_SIGNING_SECRET   (Nitro server, svc_sec_...)
//   NUXT_PUBLIC_SERVICE_ENVIRONMENT (tag env:<value>; default: the mode, production)
export default defineNuxtConfig({
  compatibilityDate: '2026-11-01',
  modules: ['@svc/nuxt'],
  svc: {
    // Hidden client source maps, registered for the SDK's browser resolver.
    sourceMaps: true,
  },
  devtools: { enabled: false },
  telemetry: false,
});
