// Both captureLocation entries never throw into the host and never reject, whatever they are given.
import { describe, expect, it } from 'vitest';
import { captureLocation as browserCapture } from '../../src/location/browser.ts';
import { captureLocation as nodeCapture } from '../../src/location/node.ts';

const on = { captureLocation: true, lineNumbers: true, sourceMaps: false };
const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('trap');
    },
    has() {
      throw new Error('trap');
    },
    getPrototypeOf() {
      throw new Error('trap');
    },
  },
);
const throwingCause = new Error('outer');
Object.defineProperty(throwingCause, 'cause', {
  get() {
    throw new Error('no cause for you');
  },
});
const inputs: unknown[] = [
  undefined,
  null,
  42,
  'text',
  Symbol('s'),
  hostile,
  throwingCause,
  Object.assign(new Error('weird stack'), { stack: 12 }),
  { stack: 'not\na\nstack' },
];

describe.each([
  ['node', nodeCapture],
  ['browser', browserCapture],
] as const)('%s captureLocation', (_name, capture) => {
  it.each(inputs.map((input, i) => [i, input]))(
    'input #%i: no throw, no rejection',
    async (_, input) => {
      for (const sourceMaps of [false, true]) {
        const result = capture(input, { ...on, sourceMaps });
        const location = await result; // a rejection would fail the test here
        expect(location === undefined || typeof location === 'object').toBe(true);
      }
    },
  );

  it('reports the outer throw site when the cause getter throws', async () => {
    const location = await capture(throwingCause, on);
    expect(location?.file_name).toContain('capture.test.ts');
  });

  it('returns undefined (and captures nothing) when captureLocation is off', () => {
    expect(capture(new Error('x'), { ...on, captureLocation: false })).toBeUndefined();
    expect(capture('text', { ...on, captureLocation: false })).toBeUndefined();
  });

  it('leaves Error.stackTraceLimit as it was', async () => {
    const before = Error.stackTraceLimit;
    await capture('text', on);
    expect(Error.stackTraceLimit).toBe(before);
  });
});
