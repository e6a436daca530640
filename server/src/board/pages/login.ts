import { html } from '../html.ts';
import { page } from '../layout.ts';

/** Only board paths (printable ASCII, so a valid Location) are accepted as where to return. */
export const safeNext = (next: string | null | undefined): string =>
  next && /^\/board(?:[/?][\x21-\x7e]*)?$/.test(next) ? next : '/board';

export function loginPage(next: string, error?: string): string {
  return page({
    title: 'Sign in',
    body: html`<form class="login" method="post" action="/board/login">
<h1>Sign in to the board</h1>
<p class="muted">Paste an admin token. Create one with <code>svc-server admin-token create</code>; it is shown once.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<label for="token">Admin token</label>
<input id="token" type="password" name="token" required autocomplete="off" autofocus>
<input type="hidden" name="next" value="${safeNext(next)}">
<button type="submit">Sign in</button>
</form>`,
  });
}
