import { describe, expect, it } from 'vitest';

import {
  parseTrace,
  prefixWithin,
  prettyJson,
  renderDescription,
  renderWithin,
} from '../../src/board/description.ts';
import { clip } from '../../src/board/format.ts';
import { escapeHtml, Html, html } from '../../src/board/html.ts';
import { safeNext } from '../../src/board/pages/login.ts';
import { cardsHref, parseCardsQuery } from '../../src/board/query.ts';

describe('html', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const evil = `"><img src=x onerror=alert(1)>'<script>&`;
    const out = html`<a title="${evil}">${evil}</a>`.markup;
    expect(out).toBe(
      '<a title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&lt;script&gt;&amp;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&lt;script&gt;&amp;</a>',
    );
    expect(escapeHtml('a&b')).toBe('a&amp;b');
  });

  it('composes nested markup and arrays without escaping them twice; drops null and false', () => {
    const items = ['<b>', 'c'].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}${null}${false}${undefined}${0}</ul>`.markup).toBe(
      '<ul><li>&lt;b&gt;</li><li>c</li>0</ul>',
    );
  });

  it('a plain string that looks like markup is still escaped (only Html made by the tag passes)', () => {
    const fake = { markup: '<script>' } as unknown as string;
    expect(html`${fake}`.markup).toBe('[object Object]');
    expect(html`${new Html('<i>')}`.markup).toBe('<i>');
  });
});

describe('descriptions', () => {
  it('splits V8, Gecko and JavaScriptCore frames from message lines', () => {
    const trace = [
      'TypeError: boom',
      '    at Object.run (/app/src/job.ts:10:5)',
      '    at async Promise.all (index 0)',
      '    at node:internal/process/task_queues:95:5',
      'Caused by: RangeError: deep',
      'render@http://localhost/node_modules/@scope/x.js:1:200',
      '@http://localhost/app.js:3:4',
    ].join('\n');
    expect(parseTrace(trace)).toEqual([
      { text: 'TypeError: boom' },
      { frame: { fn: 'Object.run', location: '/app/src/job.ts:10:5', dependency: false } },
      { frame: { fn: 'async Promise.all', location: 'index 0', dependency: false } },
      { frame: { fn: '', location: 'node:internal/process/task_queues:95:5', dependency: true } },
      { text: 'Caused by: RangeError: deep' },
      {
        frame: {
          fn: 'render',
          location: 'http://localhost/node_modules/@scope/x.js:1:200',
          dependency: true,
        },
      },
      { frame: { fn: '', location: 'http://localhost/app.js:3:4', dependency: false } },
    ]);
    const out = renderDescription(trace, 'code').markup;
    expect(out).toContain('<li class="own first"><span class="fn">Object.run</span>');
    expect(out).toContain('<pre class="message">\nCaused by: RangeError: deep</pre>');
  });

  it('re-indents JSON keeping the exact spelling of numbers and strings', () => {
    const text = '{"id":12345678901234567890,"s":"a,\\"b\\":[{}]","e":[],"o":{},"n":[1, 2.50e3]}';
    expect(prettyJson(text)).toBe(
      '{\n  "id": 12345678901234567890,\n  "s": "a,\\"b\\":[{}]",\n  "e": [],\n  "o": {},\n  "n": [\n    1,\n    2.50e3\n  ]\n}',
    );
    expect(renderDescription(text, 'json').markup).toContain('12345678901234567890');
  });

  it('deeply nested JSON falls back to the text as sent instead of growing without bound', () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    expect(prettyJson(deep)).toBeUndefined();
    const out = renderDescription(deep, 'json').markup;
    expect(out).toBe(`<pre class="plain">\n${deep}</pre>`);
  });

  it('plain text (markdown included) is shown verbatim, escaped', () => {
    const md = '# Title\n[x](javascript:alert(1)) <script>alert(1)</script>';
    expect(renderDescription(md, 'plain').markup).toBe(
      '<pre class="plain">\n# Title\n[x](javascript:alert(1)) &lt;script&gt;alert(1)&lt;/script&gt;</pre>',
    );
    expect(renderDescription(null, 'plain').markup).toContain('No description');
  });

  it('within a byte budget: by type while it fits, else as plain text, cut to whole characters', () => {
    // Escaped UTF-8 bytes: `"` 6, `é` 2, an emoji 4 (never split from its pair).
    expect(prefixWithin('a"b', 7)).toBe('a"');
    expect(prefixWithin('éé', 3)).toBe('é');
    expect(prefixWithin('😀😀', 7)).toBe('😀');
    expect(prefixWithin('short', 100)).toBe('short');
    const trace = 'Error: x\n    at a (b.js:1:2)\n    at c (d.js:3:4)';
    expect(renderWithin(trace, 'code', 4096)).toEqual({
      html: renderDescription(trace, 'code'),
      shown: trace.length,
    });
    // 2,000 tiny frames are 150 kB of markup: within 64 kB they are shown as text, whole.
    const frames = '\n at x'.repeat(2000);
    const within = renderWithin(frames, 'code', 64 * 1024);
    expect(within).toEqual({ html: renderDescription(frames, 'plain'), shown: frames.length });
    // 65,535 quotes are 393 kB escaped: cut to the budget.
    const quotes = renderWithin('"'.repeat(65_535), 'plain', 256 * 1024);
    expect(Buffer.byteLength(quotes.html.markup)).toBeLessThanOrEqual(256 * 1024);
    expect(quotes.shown).toBe(Math.floor((256 * 1024 - 64) / 6));
  });

  it('names and lines are clipped to whole characters, a cut marked', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abcd', 4)).toBe('abcd');
    expect(clip('ab😀cd', 4)).toBe('ab…'); // the emoji is not split
  });
});

describe('cards page URL', () => {
  it('parses sort, direction and filters strictly and writes them back', () => {
    const { view, query } = parseCardsQuery(
      new URLSearchParams('sort=count&dir=asc&status=done&severity=major&tag=env%3Aprod&q=%20x%20'),
      'staging',
    );
    expect(view).toEqual({
      env: 'staging',
      sort: 'count',
      dir: 'asc',
      status: 'done',
      severity: 'major',
      priority: undefined,
      tag: 'env:prod',
      q: 'x',
    });
    expect(query.text).toBe('x');
    expect(query.env).toBe('staging');
    expect(query.statuses).toEqual(['done']);
    expect(cardsHref(3, view, { after: 'abc' })).toBe(
      '/board/projects/3?env=staging&sort=count&dir=asc&status=done&severity=major&tag=env%3Aprod&q=x&after=abc',
    );
    // The environment is always named (a link shows the same whatever the browser remembers).
    expect(
      cardsHref(3, { env: 'production', sort: 'last_seen', dir: 'desc', status: 'open' }),
    ).toBe('/board/projects/3?env=production');
    expect(parseCardsQuery(new URLSearchParams('')).query.env).toBe('production');
    // Open cards by default, every status with `all`.
    expect(parseCardsQuery(new URLSearchParams('')).query.statuses).toEqual([
      'todo',
      'in_progress',
    ]);
    expect(parseCardsQuery(new URLSearchParams('status=all')).query.statuses).toBeUndefined();
    for (const bad of [
      'sort=x',
      'dir=up',
      'status=resolved',
      'severity=fatal',
      'priority=urgent',
      'after=%%%',
      'after=WzFd',
    ]) {
      expect(() => parseCardsQuery(new URLSearchParams(bad)), bad).toThrow(/Unknown|not valid/);
    }
  });

  it('returns after sign-in only to board paths', () => {
    expect(safeNext('/board/projects/1?tag=a')).toBe('/board/projects/1?tag=a');
    expect(safeNext('/board')).toBe('/board');
    for (const bad of [
      'https://evil.test/board',
      '//evil.test',
      '/boardx',
      '/board/\r\nSet-Cookie: a',
      '/board/ü',
      null,
    ]) {
      expect(safeNext(bad)).toBe('/board');
    }
  });
});
