// Types of the plugin's virtual module: add `/// <reference types="@svc/vite/virtual" />`.
declare module 'virtual:svc/config' {
  /** Client configuration built by the `svc()` plugin; pass it to `createClient` / `initShared`. */
  export const config: {
    apiKey?: string;
    environment?: string;
    release?: string;
    sourceMaps: boolean;
  };
  /** Deployment settings (the service address), the second argument of `createClient` / `initShared`. */
  export const settings: { serviceUrl?: string };
  export default config;
}
