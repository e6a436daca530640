// Card titles of the integrations (src/kit/title.ts): the same fault gives the same title.
import { describe, expect, it } from 'vitest';
import { errorName, errorTitle, maskVolatile } from '../../src/kit/title.ts';

describe('maskVolatile', () => {
  it.each([
    ['order 42 not found', 'order <n> not found'],
    ['took 1.5 s, -3 left', 'took <n> s, <n> left'],
    ['request at 1795602244250', 'request at <n>'],
    ['user 3f2a9c1e-77b0-4c1d-9a3e-0d5b1c2e4f60 missing', 'user <uuid> missing'],
    ['blob 9f86d081884c7d65 corrupt', 'blob <hash> corrupt'],
    ['customer cus_AB12CD34EF gone', 'customer <id> gone'],
    ['GET https://api.example.com/v1/items?id=7 failed', 'GET <url> failed'],
    ['mail to ana@example.com bounced', 'mail to <email> bounced'],
    [`no key 'alpha' in "beta" or \`gamma\``, 'no key <value> in <value> or <value>'],
  ])('%s -> %s', (text, masked) => expect(maskVolatile(text)).toBe(masked));

  it('keeps apostrophes inside words', () => {
    expect(maskVolatile("can't load the user's cart 9")).toBe("can't load the user's cart <n>");
  });

  it('keeps words that merely contain digits', () => {
    expect(maskVolatile('sha256 of utf8 text')).toBe('sha256 of utf8 text');
  });
});

describe('errorTitle', () => {
  it('is Name: masked first message line (place)', () => {
    expect(errorTitle(new TypeError('order 42 has no lines\n  detail'), 'POST /orders/:id')).toBe(
      'TypeError: order <n> has no lines (POST /orders/:id)',
    );
  });

  it('gives two errors of one throw site that differ only in an id the same title', () => {
    const a = errorTitle(new Error('Order 1001 not found'), 'uncaught exception');
    const b = errorTitle(new Error('Order 2002 not found'), 'uncaught exception');
    expect(a).toBe(b);
    expect(a).toBe('Error: Order <n> not found (uncaught exception)');
  });

  it('handles thrown strings, objects without a message, null and hostile getters', () => {
    expect(errorTitle('boom 7', 'browser')).toBe('Error: boom <n> (browser)');
    expect(errorTitle({ name: 'AbortError' })).toBe('AbortError');
    expect(errorTitle(null, 'unhandled rejection')).toBe('Error (unhandled rejection)');
    const hostile = {
      get message(): string {
        throw new Error('no');
      },
    };
    expect(errorTitle(hostile)).toBe('Error');
    expect(errorName(new RangeError('x'))).toBe('RangeError');
  });

  it('shortens long messages so the place stays visible', () => {
    const title = errorTitle(new Error('word '.repeat(100)), 'GET /');
    expect(title.length).toBeLessThan(150);
    expect(title.endsWith('... (GET /)')).toBe(true);
  });
});
