import { CARD_STATUSES, type CardStatus } from '../accept/index.ts';
import type { StatusChanged } from '../store/board-types.ts';
import type { Changed } from './pages/status.ts';

// What a status change of the list's checked cards did travels back to the list in its URL
// (`set`, `n`, `same`), so the page it returns to confirms it; the values are checked like any
// other URL value and never echo text.

const PARAMS = ['set', 'n', 'same'] as const;
const COUNT = /^\d{1,4}$/;

/** The page to go back to, with what the change did. */
export function withChange(back: string, status: CardStatus, found: readonly StatusChanged[]) {
  const changed = found.filter((c) => c.from !== c.to).length;
  const url = new URL(back, 'http://x');
  for (const p of PARAMS) url.searchParams.delete(p);
  url.searchParams.set('set', status);
  url.searchParams.set('n', String(changed));
  url.searchParams.set('same', String(found.length - changed));
  return `${url.pathname}${url.search}`;
}

/** The change a page's URL reports, if well formed. */
export function changeOf(params: URLSearchParams): Changed | undefined {
  const status = params.get('set') as CardStatus;
  const changed = params.get('n') ?? '';
  const same = params.get('same') ?? '';
  if (!CARD_STATUSES.includes(status) || !COUNT.test(changed) || !COUNT.test(same))
    return undefined;
  return { status, changed: Number(changed), same: Number(same) };
}

/** A page's own URL without the change it reports (the forms' `back`, the links). */
export function withoutChange(url: string): string {
  const u = new URL(url, 'http://x');
  for (const p of PARAMS) u.searchParams.delete(p);
  return `${u.pathname}${u.search}`;
}
