import { FAVICON, STYLESHEET } from './assets.ts';
import { type Html, html } from './html.ts';

// Templates in this folder are kept as written: .prettierrc.json turns off embedded formatting
// here, so the markup (and every byte of page weight) is exactly what the source shows.

/** The document around every board page; the sign-out form appears for cookie sessions. */
export function page(opts: { title: string; body: Html; csrf?: string }): string {
  const signOut =
    opts.csrf === undefined
      ? ''
      : html`<form method="post" action="/board/logout"><input type="hidden" name="csrf" value="${opts.csrf}"><button type="submit">Sign out</button></form>`;
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${opts.title} · Svc board</title><link rel="stylesheet" href="${STYLESHEET.path}"><link rel="icon" type="image/svg+xml" href="${FAVICON.path}"></head>
<body><header class="top"><a class="brand" href="/board">Svc board</a>${signOut}</header>
<main>${opts.body}</main></body></html>`}`;
}

/** A short page for 400/401/403/404 answers. */
export const messagePage = (title: string, text: string, csrf?: string) =>
  page({
    title,
    csrf,
    body: html`<h1>${title}</h1><p>${text}</p><p><a href="/board">Back to the board</a></p>`,
  });
