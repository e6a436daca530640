import type { BoardAccount, BoardProject } from '../../store/board-types.ts';
import type { Plan, PlanLimits } from '../../store/types.ts';
import { clip, count, percent } from '../format.ts';
import { type Html, html } from '../html.ts';
import { page } from '../layout.ts';
import { quotaBar } from '../svg.ts';

export const planName = (plan: Plan): string => plan[0]!.toUpperCase() + plan.slice(1);

/** Accounts per page, projects shown per account on it, projects per page of one account. */
export const ACCOUNTS_PER_PAGE = 20;
export const PROJECTS_PER_ACCOUNT = 5;
export const PROJECTS_PER_PAGE = 50;
/** Names are shown up to this many characters, so a page's size stays bounded. */
export const NAME_CHARS = 120;

type Limits = { plans: Record<Plan, PlanLimits>; projectQuotaShare: number };
type Paging = { after: boolean; before: boolean; more: boolean };

/** A name as the pages show it. */
export const shortName = (value: string) => clip(value, NAME_CHARS);

/** Previous / Next links of a keyset page by id; `href` builds a link from its query. */
function nav(ids: number[], paging: Paging, href: (query: string) => string): Html {
  const hasNext = paging.before || paging.more;
  const hasPrev = paging.after || (paging.before && paging.more);
  const prev =
    hasPrev && ids.length
      ? html`<a rel="prev" href="${href(`?before=${ids[0]}`)}">← Previous</a>`
      : '';
  const next =
    hasNext && ids.length
      ? html`<a rel="next" href="${href(`?after=${ids.at(-1)}`)}">Next →</a>`
      : '';
  const restart = paging.after || paging.before ? html`<a href="${href('')}">First page</a>` : '';
  return html`<nav class="pages">${prev}${next}${restart}</nav>`;
}

/** An account's table: the projects given, a link to the rest when some are not, the totals. */
function accountTable(a: BoardAccount, limits: Limits, linkRest: boolean): Html {
  const pool = limits.plans[a.plan].dailyEvents;
  const share = limits.projectQuotaShare;
  const rows = a.projects.map(
    (
      p: BoardProject,
    ) => html`<tr><td><a href="/board/projects/${p.id}">${shortName(p.name)}</a></td><td class="state-${p.state}">${p.state}</td><td class="num">${count(p.cards)}</td><td class="num">${count(p.eventsToday)} <span class="muted">(${percent(p.eventsToday, pool)})</span></td><td>${quotaBar(p.eventsToday, pool, `${shortName(p.name)} today`, share)}</td></tr>
`,
  );
  const rest = a.projectCount - a.projects.length;
  const more =
    linkRest && rest > 0
      ? html`<tr><td colspan="5"><a href="/board/accounts/${a.id}">All ${count(a.projectCount)} projects →</a></td></tr>
`
      : '';
  const empty =
    a.projectCount === 0 ? html`<tr><td colspan="5" class="muted">No projects yet.</td></tr>` : '';
  return html`<table class="quota"><thead><tr><th>Project</th><th>State</th><th class="num">Cards</th><th class="num">Events today</th><th>Today against the plan</th></tr></thead>
<tbody>${rows}${more}${empty}
<tr class="total"><td><strong>Account total</strong></td><td>${a.activeProjects} active of ${count(a.projectCount)}</td><td class="num"></td><td class="num"><strong>${count(a.eventsToday)}</strong> <span class="muted">(${percent(a.eventsToday, pool)})</span></td><td>${quotaBar(a.eventsToday, pool, `${shortName(a.name)} today`)}</td></tr></tbody></table>
<p class="muted">The mark on each project bar is the ${percent(share, 1)} share of the pool one project may use while the account has more than one active project${a.activeProjects > 1 ? ' (applies now)' : ' (not applied now: fewer than two active projects)'}. The quota resets at 00:00 UTC.</p>`;
}

const heading = (a: BoardAccount, limits: Limits) =>
  html`<span class="muted">· ${planName(a.plan)} plan · ${count(limits.plans[a.plan].dailyEvents)} events a day</span>`;

/** A page of accounts, each with its first projects, today's quota use against the plan. */
export function overviewPage(
  accounts: BoardAccount[],
  paging: Paging,
  limits: Limits,
  csrf?: string,
): string {
  const sections = accounts.map(
    (a) => html`<section>
<h2><a href="/board/accounts/${a.id}">${shortName(a.name)}</a> ${heading(a, limits)}</h2>
${accountTable(a, limits, true)}
</section>`,
  );
  return page({
    title: 'Accounts',
    csrf,
    body: html`<h1>Accounts and projects</h1>
${sections.length ? sections : html`<p class="muted">No accounts yet. Create one with <code>svc-server account create</code>.</p>`}
${nav(
  accounts.map((a) => a.id),
  paging,
  (q) => `/board${q}`,
)}`,
  });
}

/** One account with a page of its projects. */
export function accountPage(
  account: BoardAccount,
  paging: Paging,
  limits: Limits,
  csrf?: string,
): string {
  return page({
    title: shortName(account.name),
    csrf,
    body: html`<p class="crumbs"><a href="/board">Accounts</a></p>
<h1>${shortName(account.name)} ${heading(account, limits)}</h1>
${accountTable(account, limits, false)}
${nav(
  account.projects.map((p) => p.id),
  paging,
  (q) => `/board/accounts/${account.id}${q}`,
)}`,
  });
}
