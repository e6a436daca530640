// instrumentDurableObject over a class as workerd would construct it (a stand-in state with
// `waitUntil`; workerd itself runs the objects of pack's cross-framework matrix): a failed alarm
// is reported and delivered before the alarm settles, and still fails; an error a method throws
// to its caller is the caller's.
import { startTestService, type TestService } from '@svc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getShared, instrumentDurableObject } from '../src/index.ts';
import { bindings, cardsTitled, standInContext } from './helpers.ts';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
});

class Counter {
  count = 0;
  constructor(
    readonly ctx: { waitUntil(p: Promise<unknown>): void },
    readonly env: Record<string, string>,
  ) {}
  async increment(): Promise<number> {
    if (this.count++ > 0) throw new RangeError(`Counter ${this.count} overflowed`);
    return this.count;
  }
  async alarm(): Promise<void> {
    throw new Error(`Counter ${this.count} alarm failed`);
  }
  async reset(): Promise<string> {
    getShared()?.minorLow('Counter reset by hand', 'The counter went back to zero.');
    return 'reset';
  }
  compactLater(): void {
    this.ctx.waitUntil(this.compact());
  }
  async compact(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 10));
    throw new Error(`Compaction of counter ${this.count} failed`);
  }
}

describe('instrumentDurableObject', () => {
  const Instrumented = instrumentDurableObject(Counter, { processHandlers: false });

  it('keeps the class: its name, its methods and what they return', async () => {
    const object = new Instrumented(standInContext(), bindings(service));
    expect(Instrumented.name).toBe('Counter');
    expect(object).toBeInstanceOf(Counter);
    expect(await object.increment()).toBe(1);
  });

  it("an alarm's failure: one card, delivered before the alarm settles, which still rejects", async () => {
    const object = new Instrumented(standInContext(), bindings(service));
    await expect(object.alarm()).rejects.toThrow('Counter 0 alarm failed');
    const [card] = await cardsTitled(service, 'Error: Counter <n> alarm failed (Counter alarm)');
    expect(card).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 1 });
    expect([...card!.tags].sort()).toEqual(
      ['background-error', 'env:test', 'hono', 'release:hono@1', 'server'].sort(),
    );
  });

  it('a report made in a method: delivered within the waitUntil of that call', async () => {
    const context = standInContext();
    const object = new Instrumented(context, bindings(service));
    expect(await object.reset()).toBe('reset');
    await context.settled();
    const [report] = await cardsTitled(service, 'Counter reset by hand');
    expect(report).toMatchObject({ severity: 'minor', priority: 'low', occurrence_count: 1 });
  });

  it("a failed task handed to the object's waitUntil: one card, delivered within that task", async () => {
    const context = standInContext();
    new Instrumented(context, bindings(service)).compactLater();
    const tasks = await context.settled();
    expect(tasks.map((t) => t.status)).toContain('rejected'); // the task still fails
    const [task] = await cardsTitled(
      service,
      'Error: Compaction of counter <n> failed (Counter waitUntil)',
    );
    expect(task).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 1 });
    expect(task!.tags).toEqual(expect.arrayContaining(['hono', 'server', 'background-error']));
  });

  it("an error thrown to the caller is not reported here (the caller's route reports it)", async () => {
    const context = standInContext();
    const object = new Instrumented(context, bindings(service));
    await object.increment();
    await expect(object.increment()).rejects.toThrow(RangeError);
    await context.settled();
    expect((await service.cards()).filter((c) => c.title.startsWith('RangeError'))).toEqual([]);
  });
});
