// Where every setting lives in Nuxt's runtime config, so a `NUXT_*` variable sets it at run time
// without a rebuild. The settings that have a variable (`x-svc-options` `env`, through the runtime
// kit) are keyed by Nuxt's name of that variable: `SERVICE_API_KEY` -> `serviceApiKey`, set by
// `NUXT_PUBLIC_SERVICE_API_KEY` (contract 5.5); public ones in `runtimeConfig.public`, the secret
// key pair in private config. Every other client option is `runtimeConfig.public.svc.<option>`
// (`NUXT_PUBLIC_SVC_SAMPLE_RATE`). Pure functions, shared by the module (build) and the plugins.
import {
  OPTION_DEFAULTS,
  publicSettingNames,
  type SettingName,
  type Settings,
  settingNames,
  settingVariable,
  sharedSettingNames,
} from '@svc/runtime/kit';
import type { SvcOptions } from '@svc/runtime';

/** The runtime config key of a setting: `SERVICE_API_KEY` -> `serviceApiKey`. */
export function configKey(setting: SettingName): string {
  return settingVariable(setting)
    .toLowerCase()
    .replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** Whether browser code may hold the setting (public runtime config). */
export function isPublicSetting(setting: SettingName): boolean {
  return (publicSettingNames() as readonly string[]).includes(setting);
}

/** The client options without a variable of their own: `runtimeConfig.public.svc.<option>`. */
export function plainOptionNames(): string[] {
  const named = settingNames() as readonly string[];
  return Object.keys(OPTION_DEFAULTS).filter((name) => !named.includes(name));
}

/** The values of `config` (`runtimeConfig` or `runtimeConfig.public`) for `settings`; empty is unset. */
export function readConfigSettings(
  config: Record<string, unknown> | undefined,
  settings: readonly SettingName[],
): Settings {
  const found: Settings = {};
  for (const setting of settings) {
    const value = config?.[configKey(setting)];
    if (typeof value === 'string' && value.trim() !== '') found[setting] = value.trim();
  }
  return found;
}

/** The public settings of public runtime config (the browser's, and the server's fallback). */
export function publicSettings(config: Record<string, unknown> | undefined): Settings {
  return readConfigSettings(
    config,
    settingNames().filter((setting) => isPublicSetting(setting)),
  );
}

/** The private settings (the secret key pair) of private runtime config. */
export function privateSettings(config: Record<string, unknown> | undefined): Settings {
  return readConfigSettings(
    config,
    settingNames().filter((setting) => !isPublicSetting(setting)),
  );
}

/** Of the public settings, those a server falls back to (all but the publishable key). */
export function sharedSettings(settings: Settings): Settings {
  return Object.fromEntries(
    Object.entries(settings).filter(([name]) =>
      (sharedSettingNames() as readonly string[]).includes(name),
    ),
  );
}

/**
 * `runtimeConfig.public.svc` values -> SDK options. Empty strings (the placeholders that make
 * `NUXT_*` overrides possible) are dropped, so an unset value leaves the runtime's default, and so
 * is `sourceMaps: 'upload'`, the module's (see `mapsUploaded`).
 */
export function toSdkOptions(config: Record<string, unknown> | undefined): SvcOptions {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config ?? {})) {
    if (value === '' || value === undefined || value === null) continue;
    if (key === 'sourceMaps' && value === 'upload') continue;
    // `NUXT_PUBLIC_SVC_DEFAULT_TAGS=a,b` arrives as a string (a JSON array arrives parsed).
    out[key] = key === 'defaultTags' && typeof value === 'string' ? splitTags(value) : value;
  }
  return out as SvcOptions;
}

function splitTags(csv: string): string[] {
  return csv
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Whether the build uploaded its maps (`sourceMaps: 'upload'`): the browser's frames go raw. */
export function mapsUploaded(config: Record<string, unknown> | undefined): boolean {
  return config?.sourceMaps === 'upload';
}
