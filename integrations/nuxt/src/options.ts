/**
 * Options of the `svc` key in `nuxt.config`. Keys become runtime config, so every value can be
 * overridden at run time with `NUXT_*` environment variables, without a rebuild.
 */
export interface ModuleOptions {
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option), e.g.
   * `https://svc.example.com`. Stored as `runtimeConfig.public.serviceUrl`; override at run time
   * with `NUXT_PUBLIC_SERVICE_URL`. The Nitro server reads `SERVICE_URL` first.
   * @default '' (the runtime's default address)
   */
  serviceUrl: string;
  /**
   * Publishable key (`svc_pub_...`) for the browser. Stored as `runtimeConfig.public.serviceApiKey`;
   * override with `NUXT_PUBLIC_SERVICE_API_KEY`.
   * @default ''
   */
  apiKey: string;
  /**
   * Secret key id (`svck_...`) for the Nitro server. Private `runtimeConfig.serviceKeyId`;
   * override with `NUXT_SERVICE_KEY_ID`.
   * @default ''
   */
  keyId: string;
  /**
   * Signing secret (`svc_sec_...`) for the Nitro server; never sent to the browser. Private
   * `runtimeConfig.serviceSigningSecret`; override with `NUXT_SERVICE_SIGNING_SECRET`.
   * @default ''
   */
  signingSecret: string;
  /**
   * Master switch for both sides. Override with `NUXT_PUBLIC_SVC_ENABLED`.
   * @default true
   */
  enabled: boolean;
  /**
   * Added to every card as tag `env:<value>`; empty adds nothing.
   * @default ''
   */
  environment: string;
  /**
   * Added to every card as tag `release:<value>`; empty adds nothing.
   * @default ''
   */
  release: string;
  /**
   * Merged into every card's tags.
   * @default []
   */
  defaultTags: string[];
  /**
   * Probability (0 to 1) that a report is sent.
   * @default 1
   */
  sampleRate: number;
  /**
   * Browser source maps: build hidden client maps (`sourcemap.client: 'hidden'`) and register
   * them for the runtime's resolver, so browser cards name the original source file. The maps are
   * then public files under `/_nuxt/`. The Nitro server always reads its on-disk maps.
   * @default false
   */
  sourceMaps: boolean;
  /**
   * Attach `file_name` to cards.
   * @default true
   */
  captureLocation: boolean;
  /**
   * Also attach `line_number`.
   * @default false
   */
  lineNumbers: boolean;
  /**
   * Base64 project encryption public key; when set every payload is encrypted.
   * @default ''
   */
  encryptionPublicKey: string;
  /**
   * `svcek_` id echoed in the encryption envelope.
   * @default ''
   */
  encryptionKeyId: string;
  /**
   * Send `X-Svc-Hide-Response`.
   * @default true
   */
  hideApiResponse: boolean;
  /**
   * Queue cap per side (browser tab, Nitro process).
   * @default 100
   */
  maxQueueSize: number;
  /**
   * Parallel in-flight requests.
   * @default 3
   */
  concurrency: number;
  /**
   * Background drain cadence.
   * @default 2000
   */
  flushIntervalMs: number;
  /**
   * Per-request timeout.
   * @default 5000
   */
  timeoutMs: number;
  /**
   * Retry attempts on 429, 5xx and network errors.
   * @default 3
   */
  maxRetries: number;
  /**
   * Verbose SDK logging (keys always redacted).
   * @default false
   */
  debug: boolean;
  /**
   * Dry run: log the readable payload instead of sending it.
   * @default false
   */
  logLocally: boolean;
  /**
   * Deadline for the Nitro server's flush on `close` and on SIGTERM.
   * @default 3000
   */
  shutdownTimeoutMs: number;
}

export const defaults: ModuleOptions = {
  serviceUrl: '',
  apiKey: '',
  keyId: '',
  signingSecret: '',
  enabled: true,
  environment: '',
  release: '',
  defaultTags: [],
  sampleRate: 1,
  sourceMaps: false,
  captureLocation: true,
  lineNumbers: false,
  encryptionPublicKey: '',
  encryptionKeyId: '',
  hideApiResponse: true,
  maxQueueSize: 100,
  concurrency: 3,
  flushIntervalMs: 2000,
  timeoutMs: 5000,
  maxRetries: 3,
  debug: false,
  logLocally: false,
  shutdownTimeoutMs: 3000,
};

/** Non-secret client options shared by both sides: `runtimeConfig.public.svc`. */
export type PublicSvcConfig = Omit<
  ModuleOptions,
  'serviceUrl' | 'apiKey' | 'keyId' | 'signingSecret' | 'shutdownTimeoutMs'
>;

/** Splits module options into the runtime config keys the plugins read. */
export function toRuntimeConfig(options: ModuleOptions) {
  const { serviceUrl, apiKey, keyId, signingSecret, shutdownTimeoutMs, ...shared } = options;
  return {
    serviceKeyId: keyId,
    serviceSigningSecret: signingSecret,
    svc: { shutdownTimeoutMs },
    public: { serviceUrl, serviceApiKey: apiKey, svc: shared satisfies PublicSvcConfig },
  };
}
