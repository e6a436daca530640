import { createHash } from 'node:crypto';

// The board's only static files, served under content-hashed names (cached for a year): one
// stylesheet and the icon. No fonts, scripts or images from anywhere else.

const CSS = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#667085;--bg:#fff;--panel:#f6f7f9;--line:#e2e5ea;
--link:#2454c5;--crit:#b42318;--major:#dc6803;--mod:#a15c07;--minor:#475467;--ok:#2e7d5b;--warn:#c77700;--over:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8ec;--muted:#98a2b3;--bg:#14171c;--panel:#1d2128;
--line:#2e333b;--link:#8fb0ff;--crit:#ff8a7a;--major:#ffa26b;--mod:#f5c06b;--minor:#b6bfcc}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
header.top{display:flex;gap:1rem;align-items:center;padding:.6rem 1.2rem;border-bottom:1px solid var(--line);background:var(--panel)}
header.top .brand{font-weight:700;color:var(--fg)}header.top form{margin-left:auto}
main{padding:1rem 1.2rem;max-width:1200px}
h1{font-size:1.35rem;margin:.2rem 0 .6rem;overflow-wrap:anywhere}h2{font-size:1.05rem;margin:1.4rem 0 .5rem}
.crumbs{color:var(--muted);margin:0}.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;white-space:nowrap;color:var(--muted)}th a{color:inherit}th a.on{color:var(--fg)}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}td.title{overflow-wrap:anywhere;max-width:32rem}
.badge{display:inline-block;padding:0 .4rem;border-radius:4px;font-size:12px;font-weight:600;border:1px solid currentColor}
.sev-critical{color:var(--crit)}.sev-major{color:var(--major)}.sev-moderate{color:var(--mod)}.sev-minor{color:var(--minor)}
.pri-high{font-weight:700}.pri-low{color:var(--muted)}
.state-paused,.state-archived{color:var(--muted)}
.tag{display:inline-block;margin:0 .25rem .15rem 0;padding:0 .35rem;border-radius:4px;background:var(--panel);border:1px solid var(--line);font-size:12px;color:var(--fg);overflow-wrap:anywhere}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0 1rem}
form.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
input,select,button{font:inherit;padding:.25rem .4rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
button{cursor:pointer;background:var(--panel)}
nav.pages{display:flex;gap:1rem;margin:.8rem 0}
svg.bar{width:100%;max-width:260px;height:10px;display:block}
.track{fill:var(--panel);stroke:var(--line)}.fill.ok{fill:var(--ok)}.fill.warn{fill:var(--warn)}.fill.over{fill:var(--over)}.mark{stroke:var(--fg);stroke-width:2}
svg.spark{width:240px;height:40px;display:block}.hits{fill:var(--link)}.zero{fill:var(--line)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 1rem}dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
pre,.frames{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;margin:.3rem 0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:40rem;overflow:auto}
.trace pre.message{font-weight:600}
.frames{list-style:none}.frames li{padding:.05rem 0}.frames .fn{color:var(--fg)}.frames .loc{color:var(--muted)}
.frames li.dep{opacity:.55}.frames li.first .fn{font-weight:700}.frames li.first .loc{color:var(--link)}
.variant{border:1px solid var(--line);border-radius:6px;padding:.5rem .8rem;margin:.5rem 0}
.variant summary{cursor:pointer}
.login{max-width:26rem;margin:4rem auto;display:flex;flex-direction:column;gap:.6rem}
.error{color:var(--over)}
.quota td{vertical-align:middle}
.status{display:inline-block;padding:0 .4rem;border-radius:4px;font-size:12px;font-weight:600;background:var(--panel);border:1px solid var(--line);white-space:nowrap}
.st-in_progress{color:var(--link)}.st-done{color:var(--ok)}.st-ignored{color:var(--muted)}.regressed{color:var(--over)}
nav.statuses{display:flex;flex-wrap:wrap;gap:.3rem;margin:.6rem 0}nav.statuses a{padding:.1rem .6rem;border:1px solid var(--line);border-radius:999px;color:var(--fg)}
nav.statuses a.on{background:var(--link);border-color:var(--link);color:var(--bg)}nav.statuses .n{opacity:.75}
.status-form{display:inline-flex;flex-wrap:wrap;gap:.3rem;margin-left:.5rem}th.pick,td.pick{width:1.6rem}
div.bulk{display:flex;gap:.5rem;align-items:center;margin:.6rem 0}
ol.history{margin:.3rem 0;padding-left:1.3rem}ol.history li{margin:.15rem 0}
pre.diff del,pre.diff ins{text-decoration:none}pre.diff del{color:var(--crit)}pre.diff ins{color:var(--ok)}
code.hint{font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.words del,.words ins{text-decoration:none;border-radius:3px;padding:0 .15rem}.words del{color:var(--crit);background:color-mix(in srgb,var(--crit) 12%,transparent);text-decoration:line-through}.words ins{color:var(--ok);background:color-mix(in srgb,var(--ok) 14%,transparent)}
nav.envs{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;margin:.4rem 0}nav.envs a{padding:.05rem .55rem;border:1px solid var(--line);border-radius:4px;color:var(--fg)}
nav.envs a.on{border-color:var(--link);box-shadow:inset 0 -2px 0 var(--link);font-weight:600}nav.envs .n{opacity:.7}
.notice{padding:.45rem .7rem;border:1px solid var(--ok);border-radius:6px;color:var(--fg);background:color-mix(in srgb,var(--ok) 10%,transparent)}
td.where code{font-size:12px;white-space:nowrap}.env.on{font-weight:600}
form.release-form{display:flex;align-items:center;gap:.4rem;margin:.4rem 0 0}form.release-form label{display:flex;gap:.3rem;align-items:center}
ol.code,ol.raw{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem .6rem 3.2rem;margin:.3rem 0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:40rem;overflow:auto}
ol.code li.hit{background:var(--bg);font-weight:700}ol.code li::marker{color:var(--muted)}
ol.raw{list-style:none;padding-left:.8rem}ol.raw .mapped{color:var(--ok)}ol.raw .unmapped{color:var(--muted)}
.ok{color:var(--ok)}.st-delivered{color:var(--ok)}.st-failed{color:var(--over)}.st-pending{color:var(--warn)}.st-cancelled{color:var(--muted)}
fieldset.checks{border:0;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.15rem .5rem;font-size:12px;color:var(--muted)}fieldset.checks legend{padding:0;width:100%}label.check{color:var(--fg)}
code.secret{display:inline-block;padding:.15rem .4rem;background:var(--panel);border:1px solid var(--line);border-radius:4px;overflow-wrap:anywhere;user-select:all}
`.replace(/\n/g, '');

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2454c5"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.6"/></svg>';

export interface Asset {
  path: string;
  type: string;
  body: string;
}

const asset = (name: string, ext: string, type: string, body: string): Asset => ({
  path: `/board/assets/${name}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`,
  type,
  body,
});

export const STYLESHEET = asset('board', 'css', 'text/css; charset=utf-8', CSS);
export const FAVICON = asset('icon', 'svg', 'image/svg+xml', ICON);
