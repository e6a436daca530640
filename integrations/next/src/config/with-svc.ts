// `withSvc(nextConfig)`: the next.config changes are `env` (the browser's public settings) and
// server source maps for webpack builds; with `sourceMaps: 'upload'`, the options of
// ./source-maps.ts. It never touches the webpack or Turbopack pipeline itself, so both bundlers
// see the same app.

import {
  firstSet,
  type PublicClientOptions,
  type PublicSettingName,
  publicVariable,
  readBrowserSettings,
  type Settings,
  settingVariable,
} from '@svc/runtime/kit';
import { releaseOfBuild } from '@svc/runtime/sourcemaps';
import { findSecretLeaks } from './secrets.ts';
import { withUpload } from './source-maps.ts';

/**
 * Options of `withSvc`: the public client options of contract 8.5 (names and documentation from
 * the spec), handed to the browser client as `NEXT_PUBLIC_SERVICE_*` values. Each one not given
 * defaults to its `NEXT_PUBLIC_SERVICE_*` variable; the address, environment and release fall back
 * to `SERVICE_URL` / `SERVICE_ENVIRONMENT` / `SERVICE_RELEASE`, and the environment to `NODE_ENV`.
 */
export interface WithSvcOptions extends PublicClientOptions {
  /**
   * Address of your Svc service for the browser client (`NEXT_PUBLIC_SERVICE_URL`, inlined at
   * build time); the server reads `SERVICE_URL` at run time.
   * @default process.env.NEXT_PUBLIC_SERVICE_URL ?? process.env.SERVICE_URL
   */
  serviceUrl?: string;
  /**
   * Fail the build when a server-only credential would reach client code. `false` only warns.
   * @default true
   */
  failOnSecretLeak?: boolean;
  /**
   * `'upload'`: `next build` writes browser and server source maps, uploads them to your Svc
   * service once compiled (secret key from `SERVICE_KEY_ID` / `SERVICE_SIGNING_SECRET`), and
   * leaves no map in `.next/static`; the service maps the browser's frames, the server maps its
   * own with the maps kept in `.next/server`. The build's release (the option, else
   * `SERVICE_RELEASE`, else an id made for the build) tags the build's reports on both sides.
   * @default false
   */
  sourceMaps?: 'upload' | false;
  /** Environment to check and read defaults from (test seam). @default process.env */
  processEnv?: Record<string, string | undefined>;
}

/** Keys `withSvc` adds to `env` (inlined into server and browser code by Next). */
export const RELEASE_ENV = publicVariable('next', 'release');
export const ENVIRONMENT_ENV = publicVariable('next', 'environment');
export const SERVICE_URL_ENV = publicVariable('next', 'serviceUrl');

// Any object: Next's own `NextConfig` interface has no index signature, and a user's config may be
// typed as it (create-next-app writes `const nextConfig: NextConfig = {...}`) or not at all.
type ConfigObject = object;
/** Next's function form: `(phase, { defaultConfig }) => config`, sync or async. */
type ConfigFunction<C, Ctx> = (phase: string, ctx: Ctx) => C | Promise<C>;

function envOf(config: object): Record<string, unknown> {
  const env = (config as { env?: unknown }).env;
  return env !== null && typeof env === 'object' ? (env as Record<string, unknown>) : {};
}

function apply<C extends ConfigObject>(config: C, options: WithSvcOptions): C {
  const { failOnSecretLeak: _fail, processEnv = process.env, sourceMaps, ...given } = options;
  const settings: Settings = firstSet<Settings>(
    given as Settings,
    readBrowserSettings(processEnv, 'next'),
    { environment: processEnv.NODE_ENV },
  );
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(envOf(config))) if (typeof v === 'string') env[k] = v;
  // Uploads belong to production builds (`next dev` sets NODE_ENV to development first). The
  // maps are keyed by the release the build's reports carry (a config `env` value wins, as
  // below); one made for the build is kept in the environment that Next's workers inherit.
  const upload = sourceMaps === 'upload' && processEnv.NODE_ENV === 'production';
  if (upload)
    settings.release = releaseOfBuild(env[RELEASE_ENV] ?? settings.release, processEnv).release;
  for (const [name, value] of Object.entries(settings)) {
    const variable = publicVariable('next', name as PublicSettingName);
    if (value !== undefined && env[variable] === undefined) env[variable] = value;
  }

  const leaks = findSecretLeaks(processEnv, env);
  if (leaks.length > 0) {
    const lines = leaks.map((l) => `  - ${l.where}: ${l.what}`).join('\n');
    const message = `[svc/next] server-only credential would reach client code:\n${lines}\nKeep ${settingVariable('signingSecret')} server-side (never NEXT_PUBLIC_, never in next.config env).`;
    if (options.failOnSecretLeak !== false) throw new Error(message);
    console.warn(message);
  }
  const result = { ...config, env, experimental: withServerSourceMaps(config) };
  if (!upload) return result;
  return withUpload(result, env, {
    release: settings.release!,
    env: processEnv,
    ...(settings.serviceUrl ? { serviceUrl: settings.serviceUrl } : {}),
  });
}

/**
 * `experimental.serverSourceMaps: true` unless the app set it: webpack then writes the server's
 * `.js.map` files (Turbopack always does), which the runtime reads to give a server error's
 * `file_name` and stack frames as source positions (`app/orders/[id]/page.tsx`).
 */
function withServerSourceMaps(config: object): Record<string, unknown> {
  const experimental = (config as { experimental?: unknown }).experimental;
  const current = experimental !== null && typeof experimental === 'object' ? experimental : {};
  return { serverSourceMaps: true, ...current };
}

/**
 * Wraps a Next config (object or function form). Adds the browser's public settings to `env` as
 * `NEXT_PUBLIC_SERVICE_*` (address, environment and release, from `SERVICE_*` when their public
 * variable is unset; existing `env` values win) and checks, when Next loads the config (`next
 * build`, `next dev`, `next start`), that no server-only credential is exposed.
 */
export function withSvc<C extends ConfigObject, Ctx>(
  config: ConfigFunction<C, Ctx>,
  options?: WithSvcOptions,
): (phase: string, ctx: Ctx) => Promise<C>;
export function withSvc<C extends ConfigObject>(config: C, options?: WithSvcOptions): C;
export function withSvc<C extends ConfigObject, Ctx>(
  config: C | ConfigFunction<C, Ctx>,
  options: WithSvcOptions = {},
) {
  if (typeof config === 'function') {
    const configFunction = config as ConfigFunction<C, Ctx>;
    return async (phase: string, ctx: Ctx) => apply(await configFunction(phase, ctx), options);
  }
  return apply(config, options);
}
