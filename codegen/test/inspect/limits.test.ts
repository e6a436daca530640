import { describe, expect, it } from 'vitest';
import {
  readPlans,
  readRuntimeLimits,
  readServerLimits,
  readSourceMapLimits,
} from '../../src/inspect/limits.ts';
import { checkSourceMapLimits } from '../../src/model.ts';
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
      lineNumberMax: 2147483647,
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

  it("reads x-svc-sourcemaps and the upload schema's release and path lengths", async () => {
    const limits = readSourceMapLimits(await loadSpec());
    expect(limits).toEqual({
      fileBytesMax: 33554432,
      projectBytesMax: 1073741824,
      releasesKept: 20,
      segmentsMax: 4000000,
      sourcesMax: 50000,
      releaseMax: 42,
      pathMax: 1024,
    });
    expect(checkSourceMapLimits(limits)).toEqual([]);
    expect(checkSourceMapLimits({ ...limits, releasesKept: 0, segmentsMax: 1.5 })).toEqual([
      'x-svc-sourcemaps releasesKept must be a positive integer, got 0',
      'x-svc-sourcemaps segmentsMax must be a positive integer, got 1.5',
    ]);
  });

  it('fails when a limit is missing from the schema', async () => {
    const doc = await loadSpec();
    const schemas = (doc.components as { schemas: Record<string, any> }).schemas;
    delete schemas.TaskReport.properties.title.maxLength;
    expect(() => readRuntimeLimits(doc)).toThrow('title.maxLength must be a number');
  });
});
