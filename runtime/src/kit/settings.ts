// The variables every integration reads, named once by the spec (`x-svc-options` `env`, `public`;
// `x-svc-client` `serviceUrlEnv`; `x-svc-integrations` public prefixes). A server side reads the
// `SERVICE_*` variables; a browser build reads the public settings under its framework's prefix
// (`VITE_SERVICE_API_KEY`), and the address, environment and release fall back to the server's
// variable at build time (never a key: a browser only gets the keys it is given by name).
import { PUBLIC_PREFIXES } from '../generated/integrations.gen.ts';
import {
  OPTION_ENV,
  PUBLIC_OPTIONS,
  SERVICE_URL_ENV,
  type SvcContractOptions,
} from '../generated/options.gen.ts';

type Env = Record<string, string | undefined>;

/** The settings read from variables: the options that have one, and the service address. */
export type SettingName = keyof typeof OPTION_ENV | 'serviceUrl';
/** The settings browser code may hold. */
export type PublicSettingName = (typeof PUBLIC_OPTIONS)[number] | 'serviceUrl';
/** The client options browser code may hold, with their documentation from the spec. */
export type PublicClientOptions = Pick<SvcContractOptions, (typeof PUBLIC_OPTIONS)[number]>;
/** Frameworks whose browser builds read public variables. */
export type PublicFramework = keyof typeof PUBLIC_PREFIXES;
/** Setting -> value; a setting whose variable is unset or empty is absent. */
export type Settings = Partial<Record<SettingName, string>>;

/** The settings a browser build takes from the server's variable when its public one is unset (never a key). */
export function copiedSettingNames(): readonly PublicSettingName[] {
  return ['serviceUrl', 'environment', 'release'];
}

/**
 * The public settings a server side falls back to, from its framework's public values (Next's
 * inlined `NEXT_PUBLIC_SERVICE_*`, Nuxt's public runtime config), where its `SERVICE_*` variable
 * is unset: all but the publishable key, which is the browser's credential.
 */
export function sharedSettingNames(): readonly PublicSettingName[] {
  return publicSettingNames().filter((name) => name !== 'apiKey');
}

/** The server variable of a setting: `SERVICE_URL`, `SERVICE_KEY_ID`, ... */
export function settingVariable(setting: SettingName): string {
  return setting === 'serviceUrl' ? SERVICE_URL_ENV : OPTION_ENV[setting];
}

/** The public variable of a setting in `framework`: `VITE_SERVICE_API_KEY`. */
export function publicVariable(framework: PublicFramework, setting: PublicSettingName): string {
  return `${PUBLIC_PREFIXES[framework]}${settingVariable(setting)}`;
}

/** Every setting read from a variable, and every public one. */
export function settingNames(): SettingName[] {
  return ['serviceUrl', ...(Object.keys(OPTION_ENV) as (keyof typeof OPTION_ENV)[])];
}
export function publicSettingNames(): PublicSettingName[] {
  return ['serviceUrl', ...PUBLIC_OPTIONS];
}

const value = (env: Env, name: string) => {
  const found = env[name];
  return typeof found === 'string' && found.trim() !== '' ? found.trim() : undefined;
};

/** Drops absent values, so objects can be spread over each other. */
function defined(settings: Settings): Settings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

/** A server side's settings: each from its `SERVICE_*` variable (empty counts as unset). */
export function readServerSettings(env: Env): Settings {
  return defined(
    Object.fromEntries(settingNames().map((name) => [name, value(env, settingVariable(name))])),
  );
}

/**
 * What a browser build of `framework` hands to browser code: each public setting from its public
 * variable (`VITE_SERVICE_URL`); the address, environment and release, when that is unset, from
 * the server's variable (`SERVICE_URL`). Keys only from their public variable.
 */
export function readBrowserSettings(env: Env, framework: PublicFramework): Settings {
  return defined(
    Object.fromEntries(
      publicSettingNames().map((name) => [
        name,
        value(env, publicVariable(framework, name)) ??
          (copiedSettingNames().includes(name) ? value(env, settingVariable(name)) : undefined),
      ]),
    ),
  );
}

/** The first layer that sets each setting wins: `firstSet(explicit, fromEnv, fallbacks)`. */
export function firstSet<T extends object>(...layers: (Partial<T> | undefined)[]): Partial<T> {
  const merged: Record<string, unknown> = {};
  for (const layer of [...layers].reverse())
    for (const [key, v] of Object.entries(layer ?? {}))
      if (v !== undefined && v !== '') merged[key] = v;
  return merged as Partial<T>;
}

/**
 * The client options of a server integration: its `options` without the integration's own keys
 * (`ownKeys`: `serviceUrl`, `method`...), then the `SERVICE_*` variables of `env`, then `NODE_ENV`
 * as the environment (empty values count as unset); and the service address apart (`serviceUrl`,
 * else `SERVICE_URL`), the second argument of `createClient` / `initShared`.
 */
export function serverClientConfig(
  options: object & { serviceUrl?: string },
  env: Env,
  ownKeys: readonly string[],
): {
  options: Partial<SvcContractOptions> & Record<string, unknown>;
  settings: { serviceUrl?: string };
} {
  const { serviceUrl, ...fromEnv } = readServerSettings(env);
  const explicit: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(options))
    if (key !== 'serviceUrl' && !ownKeys.includes(key)) explicit[key] = given;
  return {
    options: firstSet<Record<string, unknown>>(explicit, fromEnv, { environment: env.NODE_ENV }),
    settings: { serviceUrl: options.serviceUrl || serviceUrl },
  };
}
