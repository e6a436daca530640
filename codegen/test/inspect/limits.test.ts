import { describe, expect, it } from 'vitest';
import { readPlans, readRuntimeLimits, readServerLimits } from '../../src/inspect/limits.ts';
import { loadSpec } from '../helpers.ts';

describe('limits and plans', () => {
  it('reads field limits from the TaskReport schema constraints (contract 2.1, 8.1)', async () => {
    expect(readRuntimeLimits(await loadSpec())).toEqual({
      titleMax: 255,
      tagMax: 50,
      descriptionMax: 65535,
      sdkDescriptionMax: 60000,
      fileNameMax: 255,
      lineNumberMin: 1,
    });
  });

  it('reads x-svc-limits and x-svc-plans (contract 8.1 to 8.3)', async () => {
    const doc = await loadSpec();
    expect(readServerLimits(doc)).toEqual({
      variantCap: 20,
      timestampSkewSeconds: 300,
      projectQuotaShare: 0.8,
      tagsPerReport: 100,
      tagsPerCard: 200,
    });
    expect(readPlans(doc)).toEqual({
      hobby: { burstPerMinute: 60, dailyEvents: 300 },
      indie: { burstPerMinute: 100, dailyEvents: 1000 },
      professional: { burstPerMinute: 200, dailyEvents: 3000 },
      team: { burstPerMinute: 500, dailyEvents: 20000 },
    });
  });

  it('fails when a limit is missing from the schema', async () => {
    const doc = await loadSpec();
    const schemas = (doc.components as { schemas: Record<string, any> }).schemas;
    delete schemas.TaskReport.properties.title.maxLength;
    expect(() => readRuntimeLimits(doc)).toThrow('title.maxLength must be a number');
  });
});
