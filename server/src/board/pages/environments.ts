import { DEFAULT_ENV } from '../../accept/index.ts';
import type { BoardEnvironment } from '../../store/board-types.ts';
import { count } from '../format.ts';
import { type Html, html } from '../html.ts';
import { type CardsView, cardsHref, OPEN_STATUSES } from '../query.ts';

/**
 * The environment switcher of a project's cards: each environment the project has reports from
 * (production first), with its open cards; the one viewed is marked, and is listed even without
 * cards. A link keeps the other filters and starts at the first page.
 */
export function envSwitch(
  projectId: number,
  view: CardsView,
  environments: readonly BoardEnvironment[],
): Html {
  const known = new Map(environments.map((e) => [e.name, e]));
  const names = [...new Set([DEFAULT_ENV, view.env, ...known.keys()])].filter(
    (name) => name === view.env || known.has(name),
  );
  names.sort((a, b) => (a === DEFAULT_ENV ? -1 : b === DEFAULT_ENV ? 1 : a < b ? -1 : 1));
  const links = names.map((name) => {
    const open = OPEN_STATUSES.reduce((n, s) => n + (known.get(name)?.statusCounts[s] ?? 0), 0);
    const on = name === view.env;
    const href = cardsHref(
      projectId,
      { ...view, env: name },
      { after: undefined, before: undefined },
    );
    return html`<a href="${href}"${on ? html` class="on" aria-current="page"` : ''} title="${count(open)} open cards in ${name}">${name} <span class="n">${count(open)}</span></a>`;
  });
  return html`<nav class="envs" aria-label="Environment"><span class="muted">Environment</span> ${links}</nav>`;
}
