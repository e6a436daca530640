import { count, counted, HOUR, percent } from './format.ts';
import { type Html, html } from './html.ts';

// Inline SVG drawn on the server: no script, no style attributes (the CSP forbids both); the
// stylesheet colours the classes.

/**
 * A quota bar: `used` against `pool`, with the project share (80 %) marked when `shareMark` is
 * given. Beyond the pool the bar is full and flagged.
 */
export function quotaBar(used: number, pool: number, label: string, shareMark?: number): Html {
  const filled = pool > 0 ? Math.min(100, (used / pool) * 100) : 0;
  const level =
    used >= pool ? 'over' : shareMark !== undefined && used >= pool * shareMark ? 'warn' : 'ok';
  const mark =
    shareMark === undefined
      ? ''
      : html`<line class="mark" x1="${shareMark * 100}" x2="${shareMark * 100}" y1="0" y2="10" vector-effect="non-scaling-stroke"/>`;
  return html`<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${label}: ${count(used)} of ${count(pool)} (${percent(used, pool)})"><rect class="track" width="100" height="10"/><rect class="fill ${level}" width="${filled.toFixed(2)}" height="10"/>${mark}</svg>`;
}

/** Events per hour as bars, oldest left; each bar's tooltip names its hour (UTC). */
export function sparkline(perHour: number[], lastHour: number): Html {
  const max = Math.max(1, ...perHour);
  const bars = perHour.map((n, i) => {
    const height = n === 0 ? 1 : Math.max(2, Math.round((n / max) * 38));
    const start = new Date((lastHour - perHour.length + 1 + i) * HOUR).toISOString().slice(11, 16);
    return html`<rect class="${n === 0 ? 'zero' : 'hits'}" x="${i * 10}" y="${40 - height}" width="8" height="${height}"><title>${start} UTC: ${count(n)}</title></rect>`;
  });
  const total = perHour.reduce((a, b) => a + b, 0);
  return html`<svg class="spark" viewBox="0 0 ${perHour.length * 10} 40" role="img" aria-label="${counted(total, 'event')} in the last ${perHour.length} hours">${bars}</svg>`;
}
