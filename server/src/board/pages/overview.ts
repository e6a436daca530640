import type { BoardAccount } from '../../store/board-types.ts';
import type { Plan, PlanLimits } from '../../store/types.ts';
import { count, percent } from '../format.ts';
import { html } from '../html.ts';
import { page } from '../layout.ts';
import { quotaBar } from '../svg.ts';

export const planName = (plan: Plan): string => plan[0]!.toUpperCase() + plan.slice(1);

/** Accounts and their projects: plan, state, cards and today's quota use against the plan. */
export function overviewPage(
  accounts: BoardAccount[],
  limits: { plans: Record<Plan, PlanLimits>; projectQuotaShare: number },
  csrf?: string,
): string {
  const share = limits.projectQuotaShare;
  const sections = accounts.map((a) => {
    const pool = limits.plans[a.plan].dailyEvents;
    const active = a.projects.filter((p) => p.state === 'active').length;
    const total = a.projects.reduce((n, p) => n + p.eventsToday, 0);
    const cards = a.projects.reduce((n, p) => n + p.cards, 0);
    const rows = a.projects.map(
      (
        p,
      ) => html`<tr><td><a href="/board/projects/${p.id}">${p.name}</a></td><td class="state-${p.state}">${p.state}</td><td class="num">${count(p.cards)}</td><td class="num">${count(p.eventsToday)} <span class="muted">(${percent(p.eventsToday, pool)})</span></td><td>${quotaBar(p.eventsToday, pool, `${p.name} today`, share)}</td></tr>
`,
    );
    return html`<section>
<h2>${a.name} <span class="muted">· ${planName(a.plan)} plan · ${count(pool)} events a day</span></h2>
<table class="quota"><thead><tr><th>Project</th><th>State</th><th class="num">Cards</th><th class="num">Events today</th><th>Today against the plan</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="5" class="muted">No projects yet.</td></tr>`}
<tr class="total"><td><strong>Account total</strong></td><td>${active} active</td><td class="num">${count(cards)}</td><td class="num"><strong>${count(total)}</strong> <span class="muted">(${percent(total, pool)})</span></td><td>${quotaBar(total, pool, `${a.name} today`)}</td></tr></tbody></table>
<p class="muted">The mark on each project bar is the ${percent(share, 1)} share of the pool one project may use while the account has more than one active project${active > 1 ? ' (applies now)' : ' (not applied now: fewer than two active projects)'}. The quota resets at 00:00 UTC.</p>
</section>`;
  });
  return page({
    title: 'Accounts',
    csrf,
    body: html`<h1>Accounts and projects</h1>
${sections.length ? sections : html`<p class="muted">No accounts yet. Create one with <code>svc-server account create</code>.</p>`}`,
  });
}
