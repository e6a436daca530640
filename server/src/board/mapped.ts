// The source-map side of a card's pages: the raw text a mapped report came with (kept by variant
// identity, store/sourcemap-types.ts `RawReport`) and the original source around its top frame of
// the project's own code. Read only here, behind the board's sign-in; no API key reaches them.
import { variantIdentity } from '../accept/fold.ts';
import type { TaskReport } from '../domain/types.ts';
import { sourceText } from '../sourcemaps/codec.ts';
import type { CodeContext, FrameNote } from '../sourcemaps/rewrite.ts';
import type { RawReport, SourceMapStore } from '../store/sourcemap-types.ts';
import { type CodeView, codeView } from './pages/mapped.ts';

/** What a card or variant shows of its first report's fields. */
export interface Reported {
  title: string | null;
  description: string | null;
  fileName: string | null;
  lineNumber: number | null;
}

/** The raw report behind a card or variant (same identity as ingestion gave its variant). */
export function rawReportOf(
  store: SourceMapStore,
  projectId: number,
  shown: Reported & { title: string },
): Promise<RawReport | undefined> {
  // The identity reads these four fields only (contract 2.4), as ingestion computed it.
  const identity = variantIdentity({
    title: shown.title,
    description: shown.description,
    file_name: shown.fileName,
    line_number: shown.lineNumber,
  } as TaskReport);
  return Promise.resolve(store.rawReport(projectId, identity));
}

export const notesOf = (raw: RawReport): FrameNote[] => JSON.parse(raw.notes) as FrameNote[];

/** The code context of a raw report: the source lines, or why they are gone; undefined without one. */
export async function codeOf(store: SourceMapStore, raw: RawReport): Promise<CodeView | undefined> {
  if (!raw.context) return undefined;
  const context = JSON.parse(raw.context) as CodeContext;
  const content = await store.sourceContent(context.map, context.source);
  if (!content) return { file: context.file, line: context.line, gone: true };
  return codeView(context.file, context.line, sourceText(content));
}
