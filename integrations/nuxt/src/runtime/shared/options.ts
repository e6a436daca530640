import type { SvcOptions } from '@svc/runtime';

/**
 * Runtime config values -> SDK options. Empty strings (the defaults that make `NUXT_*` overrides
 * possible) are dropped, so an unset environment adds no `env:` tag and no key. Never throws.
 */
export function toSdkOptions(config: Record<string, unknown> | undefined): SvcOptions {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config ?? {})) {
    if (value === '' || value === undefined || value === null) continue;
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
