import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AlertAdmin } from '../alerts/admin.ts';
import { AlertSetupError } from '../alerts/setup.ts';
import type { BoardProjectPage, BoardStore } from '../store/board-types.ts';
import { formAllowed } from './auth.ts';
import { DAY } from './format.ts';
import { html } from './html.ts';
import { type AlertsView, alertsPage, DELIVERIES_PER_PAGE } from './pages/alerts.ts';
import { parseIdPage } from './query.ts';
import { csrfOf, formOf, idOf, notFound, refused, send, viewers } from './reply.ts';

type Params = { project: string };
type ItemParams = Params & { id: string };

/** What a redirect after an action says on the page (`?done=`): fixed texts, never echoed input. */
const DONE: Record<string, string> = {
  'rule-added': 'Rule added.',
  'rule-removed': 'Rule removed; its pending deliveries are cancelled.',
  'webhook-removed': 'Webhook removed, with its rules; their pending deliveries are cancelled.',
};

type Deps = { store: BoardStore; alerts?: AlertAdmin; now: () => number };

/**
 * What the alerts routes share: the project of a URL, the page's answer (with what the last action
 * did), and the shape of each form's action (form token and project checked; a refused setup is
 * a 400 with the reason; the id in the URL must be the project's).
 */
function alertPageParts(deps: Deps) {
  const { store, now } = deps;
  const projectOf = async (params: Params) => {
    const projectId = idOf(params.project);
    return projectId ? store.getProject(projectId, Math.floor(now() / DAY)) : undefined;
  };

  async function render(
    req: FastifyRequest,
    reply: FastifyReply,
    project: BoardProjectPage,
    status: number,
    extra: Pick<AlertsView, 'notice' | 'before'> = { before: undefined },
  ) {
    const alerts = deps.alerts;
    const [webhooks, rules, deliveries] = alerts
      ? await Promise.all([
          alerts.listWebhooks(project.id),
          alerts.listRules(project.id),
          alerts.deliveries(project.id, { before: extra.before, limit: DELIVERIES_PER_PAGE + 1 }),
        ])
      : [[], [], []];
    const view: AlertsView = { project, webhooks, rules, deliveries, ...extra, off: !alerts };
    return send(reply, status, alertsPage(view, csrfOf(req)));
  }

  /** Runs a form's action: checks the form token and the project, answers 400 on a refused setup. */
  const action =
    <P extends Params>(
      act: (
        alerts: AlertAdmin,
        project: BoardProjectPage,
        form: URLSearchParams,
        params: P,
      ) => Promise<{ redirect: string } | { notice: AlertsView['notice'] }>,
    ) =>
    async (req: FastifyRequest<{ Params: P }>, reply: FastifyReply) => {
      const form = formOf(req);
      if (!formAllowed(req, viewers.get(req)!, form.get('csrf'))) return refused(req, reply);
      const params = req.params as P;
      const project = await projectOf(params);
      if (!project || !deps.alerts) return notFound(req, reply);
      try {
        const done = await act(deps.alerts, project, form, params);
        if ('redirect' in done) return reply.redirect(done.redirect, 303);
        return render(req, reply, project, 200, { notice: done.notice, before: undefined });
      } catch (error) {
        if (!(error instanceof AlertSetupError)) throw error;
        const notice = { ok: false, text: error.message };
        return render(req, reply, project, 400, { notice, before: undefined });
      }
    };
  const back = (project: BoardProjectPage, query: string) => ({
    redirect: `/board/projects/${project.id}/alerts?${query}`,
  });
  /** The id in the URL, when it names one of the project's webhooks or rules. */
  const owned = (list: { id: number }[], value: string) => {
    const id = idOf(value);
    if (id === undefined || !list.some((item) => item.id === id)) {
      throw new AlertSetupError('There is no such item in this project.');
    }
    return id;
  };

  return { projectOf, render, action, back, owned };
}

/**
 * A project's alerts under the board: the page (webhooks, rules, delivery log), and the forms that
 * add a webhook (its secret shown once, on the answer), add a rule, send a rule's test alert and
 * remove either. Every form is same-origin with the session's form token (403 otherwise); a setup
 * the rules refuse answers 400 with the reason.
 */
export function registerAlertRoutes(board: FastifyInstance, deps: Deps): void {
  const { projectOf, render, action, back, owned } = alertPageParts(deps);
  const path = '/projects/:project/alerts';

  board.get<{ Params: Params }>(path, async (req, reply) => {
    const project = await projectOf(req.params);
    if (!project) return notFound(req, reply);
    const query = new URL(req.url, 'http://x').searchParams;
    const { before } = parseIdPage(query);
    const done = DONE[query.get('done') ?? ''];
    const tested = idOf(query.get('tested') ?? '');
    const notice = done
      ? { ok: true, text: done }
      : tested
        ? { ok: true, text: `Test alert #${tested} sent; its outcome is in the log below.` }
        : undefined;
    return render(req, reply, project, 200, { before, notice });
  });

  board.post<{ Params: Params }>(
    `${path}/webhooks`,
    action(async (alerts, project, form) => {
      const { webhook, secret } = await alerts.addWebhook({
        projectId: project.id,
        name: form.get('name') ?? undefined,
        url: form.get('url') ?? '',
        format: form.get('format') ?? undefined,
      });
      const text = secret
        ? html`Webhook #${webhook.id} “${webhook.name}” added. Its signing secret, shown once (store it now, it cannot be displayed again): <code class="secret">${secret}</code>`
        : html`Webhook #${webhook.id} “${webhook.name}” added.`;
      return { notice: { ok: true, text } };
    }),
  );
  board.post<{ Params: ItemParams }>(
    `${path}/webhooks/:id/remove`,
    action(async (alerts, project, _form, params) => {
      await alerts.removeWebhook(owned(await alerts.listWebhooks(project.id), params.id));
      return back(project, 'done=webhook-removed');
    }),
  );
  board.post<{ Params: Params }>(
    `${path}/rules`,
    action(async (alerts, project, form) => {
      const webhookId = idOf(form.get('webhook') ?? '');
      if (!webhookId) throw new AlertSetupError('Pick a webhook.');
      await alerts.addRule({
        projectId: project.id,
        webhookId,
        event: form.get('event') ?? '',
        name: form.get('name') ?? undefined,
        environments: form.get('environments') ?? undefined,
        severities: form.getAll('severity'),
        threshold: form.get('threshold') ?? undefined,
        windowMinutes: form.get('window') ?? undefined,
      });
      return back(project, 'done=rule-added');
    }),
  );
  board.post<{ Params: ItemParams }>(
    `${path}/rules/:id/remove`,
    action(async (alerts, project, _form, params) => {
      await alerts.removeRule(owned(await alerts.listRules(project.id), params.id));
      return back(project, 'done=rule-removed');
    }),
  );
  board.post<{ Params: ItemParams }>(
    `${path}/rules/:id/test`,
    action(async (alerts, project, _form, params) => {
      const result = await alerts.test(owned(await alerts.listRules(project.id), params.id));
      return back(project, `tested=${result.deliveryId}`);
    }),
  );
}
