import type { SvcOptions } from '@svc/runtime';

/**
 * Runtime config values -> SDK options. Empty strings (the defaults that make `NUXT_*` overrides
 * possible) become `undefined`, so an unset environment adds no `env:` tag and no key.
 */
export function toSdkOptions(config: Record<string, unknown>): SvcOptions {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === '' || value === undefined || value === null) continue;
    out[key] = value;
  }
  return out as SvcOptions;
}
