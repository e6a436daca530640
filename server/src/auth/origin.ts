import type { IncomingHttpHeaders } from 'node:http';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function parse(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Origin allow-list of a publishable key (contract 5.3). Empty list: anything goes. Otherwise the
 * `Origin` (else `Referer`) must equal a full-origin entry or have a bare-host entry as its host
 * (subdomains differ), or `X-Svc-App-Id` must equal an entry.
 */
export function originAllowed(allowed: readonly string[], headers: IncomingHttpHeaders): boolean {
  if (allowed.length === 0) return true;
  const appId = first(headers['x-svc-app-id']);
  const url = parse(first(headers.origin)) ?? parse(first(headers.referer));
  for (const raw of allowed) {
    const entry = raw.trim();
    if (appId !== undefined && entry === appId) return true;
    if (!url) continue;
    if (entry.includes('://')) {
      if (parse(entry)?.origin === url.origin) return true;
    } else {
      const bare = entry.toLowerCase().replace(/\/+$/, '');
      if (bare === url.host || bare === url.hostname) return true;
    }
  }
  return false;
}
