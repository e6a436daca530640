// The module's options and how they become runtime config (at build time). The option names, types,
// documentation and defaults are the spec's (`SvcContractOptions`, generated); where each lands in
// runtime config is `runtime/shared/config.ts`.
import {
  firstSet,
  type OPTION_ENV,
  type PublicSettingName,
  readBrowserSettings,
  type SERVICE_URL_ENV,
  type SettingName,
  type Settings,
  settingNames,
  type SvcContractOptions,
} from '@svc/runtime/kit';
import { configKey, isPublicSetting, plainOptionNames } from './runtime/shared/config';

/**
 * Options of the `svc` key in `nuxt.config`: every client option of contract 8.5 that runtime
 * config can hold (names, documentation and defaults from the spec), the service address and the
 * shutdown deadline. Each becomes runtime config, so a `NUXT_*` variable overrides it at run time
 * without a rebuild (`runtime/shared/config.ts`). `beforeSend`, a function, cannot be JSON.
 */
export interface ModuleOptions extends Omit<SvcContractOptions, 'sourceMaps'> {
  /**
   * `'upload'`: `nuxi build` uploads the client's hidden maps (with debug IDs) and the server's
   * to your Svc service (secret key from `SERVICE_KEY_ID` / `SERVICE_SIGNING_SECRET` at build
   * time), leaves no map in `.output/public`, and sets the build's release on both sides; the
   * service maps the browser's frames. `true`: hidden client maps deployed under `/_nuxt/` and
   * registered for the browser to fetch (your source is then public). Server maps are always
   * chained through Vite's SSR maps, so page errors name the `.vue` file.
   * @default false
   */
  sourceMaps?: boolean | 'upload';
  /**
   * Address of your Svc service (a deployment setting, not a contract 8.5 option), e.g.
   * `https://svc.example.com`: `runtimeConfig.public.serviceUrl`, `NUXT_PUBLIC_SERVICE_URL`. The
   * Nitro server reads `SERVICE_URL` first.
   * @default `SERVICE_URL` of the build's environment, else the runtime's default address
   */
  serviceUrl?: string;
  /**
   * Deadline for the Nitro server's flush on `close` and on SIGTERM, in milliseconds.
   * @default 3000
   */
  shutdownTimeoutMs?: number;
}

export const defaults = { shutdownTimeoutMs: 3000 } satisfies ModuleOptions;

/** `SERVICE_API_KEY` -> `serviceApiKey`, as a type. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<Camel<Tail>>}`
  : Lowercase<S>;
type Variable<S extends SettingName> = S extends 'serviceUrl'
  ? typeof SERVICE_URL_ENV
  : (typeof OPTION_ENV)[Exclude<S, 'serviceUrl'>];
/** The public settings' runtime config keys (`serviceApiKey`, ...). */
export type PublicSettingKeys = { [S in PublicSettingName as Camel<Variable<S>>]: string };
/** The private settings' runtime config keys (`serviceKeyId`, `serviceSigningSecret`). */
export type PrivateSettingKeys = {
  [S in Exclude<SettingName, PublicSettingName> as Camel<Variable<S>>]: string;
};

/**
 * Module options -> runtime config. A setting not given takes what a browser build of Nuxt reads
 * from the build's environment (`readBrowserSettings`: `NUXT_PUBLIC_SERVICE_*`, and `SERVICE_URL`,
 * `SERVICE_ENVIRONMENT`, `SERVICE_RELEASE`); every key exists (empty when unset) so that its
 * `NUXT_*` variable can set it at run time.
 */
export function toRuntimeConfig(
  options: ModuleOptions,
  buildEnv: Record<string, string | undefined>,
) {
  const { shutdownTimeoutMs = defaults.shutdownTimeoutMs, ...given } = options;
  const settings: Settings = firstSet<Settings>(
    given as Settings,
    readBrowserSettings(buildEnv, 'nuxt'),
  );
  const privateKeys: Record<string, string> = {};
  const publicKeys: Record<string, string> = {};
  for (const setting of settingNames()) {
    (isPublicSetting(setting) ? publicKeys : privateKeys)[configKey(setting)] =
      settings[setting] ?? '';
  }
  const svc: Record<string, unknown> = {};
  for (const name of plainOptionNames()) svc[name] = given[name as keyof typeof given] ?? '';
  return {
    ...(privateKeys as PrivateSettingKeys),
    svc: { shutdownTimeoutMs },
    public: { ...(publicKeys as PublicSettingKeys), svc },
  };
}
