// Reads the limits and plans: field limits come from the JSON Schema constraints of `TaskReport`
// (so schema and constants cannot drift), the rest from `x-svc-limits` and `x-svc-plans`.
import type { Plan, RuntimeLimits, ServerLimits, SourceMapLimits } from '../model.ts';
import { type Doc, isObject, schemaComponent } from './document.ts';

export function num(value: unknown, what: string): number {
  if (typeof value !== 'number') throw new Error(`${what} must be a number`);
  return value;
}

/** The array form of `TaskReport.tags`. */
function tagArrayOf(doc: Doc): Record<string, unknown> {
  const props = schemaComponent(doc, 'TaskReport').properties;
  const tags = isObject(props) ? props.tags : undefined;
  const array = isObject(tags)
    ? (tags.anyOf as unknown[] | undefined)?.find((s) => isObject(s) && s.type === 'array')
    : undefined;
  return isObject(array) ? array : {};
}

export function readRuntimeLimits(doc: Doc): RuntimeLimits {
  const props = schemaComponent(doc, 'TaskReport').properties;
  if (!isObject(props)) throw new Error('TaskReport.properties missing');
  const field = (name: string) => {
    const schema = props[name];
    if (!isObject(schema)) throw new Error(`TaskReport.properties.${name} missing`);
    return schema;
  };
  const tagArray = tagArrayOf(doc);
  const tagItems = isObject(tagArray.items) ? tagArray.items : {};
  return {
    titleMax: num(field('title').maxLength, 'title.maxLength'),
    tagMax: num(tagItems.maxLength, 'tags array items.maxLength'),
    descriptionMax: num(field('description').maxLength, 'description.maxLength'),
    sdkDescriptionMax: num(
      field('description')['x-svc-sdk-max-length'],
      'description.x-svc-sdk-max-length',
    ),
    fileNameMax: num(field('file_name').maxLength, 'file_name.maxLength'),
    lineNumberMin: num(field('line_number').minimum, 'line_number.minimum'),
    lineNumberMax: num(field('line_number').maximum, 'line_number.maximum'),
  };
}

/** The title of a report that has none and no description line (`x-svc-untitled` on the title). */
export function readUntitledTitle(doc: Doc): string {
  const props = schemaComponent(doc, 'TaskReport').properties;
  const title = isObject(props) ? props.title : undefined;
  const value = isObject(title) ? title['x-svc-untitled'] : undefined;
  if (typeof value !== 'string' || !value.trim())
    throw new Error('TaskReport.properties.title.x-svc-untitled must be a non-empty string');
  return value;
}

export function readServerLimits(doc: Doc): ServerLimits {
  const raw = doc['x-svc-limits'];
  if (!isObject(raw)) throw new Error('x-svc-limits is required');
  return {
    variantCap: num(raw.variantCap, 'x-svc-limits.variantCap'),
    timestampSkewSeconds: num(raw.timestampSkewSeconds, 'x-svc-limits.timestampSkewSeconds'),
    projectQuotaShare: num(raw.projectQuotaShare, 'x-svc-limits.projectQuotaShare'),
    tagsPerReport: num(tagArrayOf(doc).maxItems, 'tags array maxItems'),
    tagsPerCard: num(raw.tagsPerCard, 'x-svc-limits.tagsPerCard'),
  };
}

export function readQuotaWarnings(doc: Doc): number[] {
  const raw = doc['x-svc-quota-warnings'];
  if (!isObject(raw) || !Array.isArray(raw.thresholds)) {
    throw new Error('x-svc-quota-warnings.thresholds is required');
  }
  return raw.thresholds.map((p, i) => num(p, `x-svc-quota-warnings.thresholds[${i}]`));
}

export function readPlans(doc: Doc): Record<string, Plan> {
  const raw = doc['x-svc-plans'];
  if (!isObject(raw)) throw new Error('x-svc-plans is required');
  const plans: Record<string, Plan> = {};
  for (const [name, plan] of Object.entries(raw)) {
    if (name === 'description') continue;
    if (!isObject(plan)) throw new Error(`x-svc-plans.${name} must be a mapping`);
    plans[name] = {
      burstPerMinute: num(plan.burstPerMinute, `x-svc-plans.${name}.burstPerMinute`),
      dailyEvents: num(plan.dailyEvents, `x-svc-plans.${name}.dailyEvents`),
    };
  }
  return plans;
}

/** `x-svc-sourcemaps`, and the `release` and `path` lengths of `SourceMapUpload`. */
export function readSourceMapLimits(doc: Doc): SourceMapLimits {
  const raw = doc['x-svc-sourcemaps'];
  if (!isObject(raw)) throw new Error('x-svc-sourcemaps is required');
  const props = schemaComponent(doc, 'SourceMapUpload').properties;
  const field = (name: string) => {
    const schema = isObject(props) ? props[name] : undefined;
    if (!isObject(schema)) throw new Error(`SourceMapUpload.properties.${name} missing`);
    return schema;
  };
  const at = (key: string) => num(raw[key], `x-svc-sourcemaps.${key}`);
  return {
    fileBytesMax: at('fileBytesMax'),
    projectBytesMax: at('projectBytesMax'),
    releasesKept: at('releasesKept'),
    segmentsMax: at('segmentsMax'),
    sourcesMax: at('sourcesMax'),
    releaseMax: num(field('release').maxLength, 'SourceMapUpload.release.maxLength'),
    pathMax: num(field('path').maxLength, 'SourceMapUpload.path.maxLength'),
  };
}
