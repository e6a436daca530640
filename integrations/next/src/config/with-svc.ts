// `withSvc(nextConfig)`: the only next.config change is `env` (the browser's public settings). It
// never touches webpack or Turbopack, so both bundlers see the same app.

import {
  firstSet,
  type PublicClientOptions,
  type PublicSettingName,
  publicVariable,
  readBrowserSettings,
  type Settings,
  settingVariable,
} from '@svc/runtime/kit';
import { findSecretLeaks } from './secrets.ts';

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
  /** Environment to check and read defaults from (test seam). @default process.env */
  processEnv?: Record<string, string | undefined>;
}

/** Keys `withSvc` adds to `env` (inlined into server and browser code by Next). */
export const RELEASE_ENV = publicVariable('next', 'release');
export const ENVIRONMENT_ENV = publicVariable('next', 'environment');
export const SERVICE_URL_ENV = publicVariable('next', 'serviceUrl');

type ConfigObject = { env?: Record<string, string | undefined> } & Record<string, unknown>;
type ConfigInput<C> = C | ((phase: string, ctx: any) => C | Promise<C>);

function apply<C extends ConfigObject>(config: C, options: WithSvcOptions): C {
  const { failOnSecretLeak: _fail, processEnv = process.env, ...given } = options;
  const settings: Settings = firstSet<Settings>(
    given as Settings,
    readBrowserSettings(processEnv, 'next'),
    { environment: processEnv.NODE_ENV },
  );
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.env ?? {})) if (typeof v === 'string') env[k] = v;
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
  return { ...config, env };
}

/**
 * Wraps a Next config (object or function form). Adds the browser's public settings to `env` as
 * `NEXT_PUBLIC_SERVICE_*` (address, environment and release, from `SERVICE_*` when their public
 * variable is unset; existing `env` values win) and checks, when Next loads the config (`next
 * build`, `next dev`, `next start`), that no server-only credential is exposed.
 */
export function withSvc<C extends ConfigObject>(config: C, options?: WithSvcOptions): C;
export function withSvc<C extends ConfigObject>(
  config: (phase: string, ctx: any) => C | Promise<C>,
  options?: WithSvcOptions,
): (phase: string, ctx: any) => Promise<C>;
export function withSvc<C extends ConfigObject>(
  config: ConfigInput<C>,
  options: WithSvcOptions = {},
) {
  if (typeof config === 'function') {
    return async (phase: string, ctx: any) => apply(await config(phase, ctx), options);
  }
  return apply(config, options);
}
