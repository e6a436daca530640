// The source-map side of a card's pages: the raw text a mapped report came with (kept by variant
// identity, store/sourcemap-types.ts `RawReport`) and the original source around its top frame of
// the project's own code. Read only here, behind the board's sign-in; no API key reaches them.
import { variantIdentity } from '../accept/fold.ts';
import type { FastifyInstance } from 'fastify';
import type { TaskReport } from '../domain/types.ts';
import type { BoardCard, BoardProject, BoardVariant } from '../store/board-types.ts';
import { sourceText } from '../sourcemaps/codec.ts';
import type { CodeContext, FrameNote } from '../sourcemaps/rewrite.ts';
import type { RawReport, SourceMapStore } from '../store/sourcemap-types.ts';
import { rawPage } from './pages/card.ts';
import { type CodeView, codeView } from './pages/mapped.ts';
import { csrfOf, notFound, send } from './reply.ts';

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

/** What a mapped card's page adds (its code, a link to its frames as sent), or undefined. */
export async function mappedOf(store: SourceMapStore, projectId: number, card: BoardCard) {
  const raw = await rawReportOf(store, projectId, card);
  if (!raw) return undefined;
  const rawHref = `/board/projects/${projectId}/cards/${card.id}/raw`;
  return { rawHref, code: await codeOf(store, raw) };
}

type Params = { project: string; card: string };
type Found = { project: BoardProject & { accountName: string }; card: BoardCard };

/**
 * A card's and a variant's report as the SDK sent it, before source maps (`<card>/raw`,
 * `<card>/variants/<id>/raw`): 404 unless ingestion mapped it.
 */
export function registerRawRoutes(
  board: FastifyInstance,
  base: string,
  deps: {
    sourceMaps: SourceMapStore;
    loadCard: (params: Params) => Promise<Found | undefined>;
    variantOf: (
      params: Params & { variant: string },
    ) => Promise<(Found & { variant: BoardVariant }) | undefined>;
  },
): void {
  const { sourceMaps } = deps;
  board.get<{ Params: Params }>(`${base}/raw`, async (req, reply) => {
    const found = await deps.loadCard(req.params);
    const raw = found && (await rawReportOf(sourceMaps, found.project.id, found.card));
    if (!found || !raw) return notFound(req, reply);
    return send(reply, 200, rawPage(found.project, found.card, undefined, raw, csrfOf(req)));
  });
  board.get<{ Params: Params & { variant: string } }>(
    `${base}/variants/:variant/raw`,
    async (req, reply) => {
      const found = await deps.variantOf(req.params);
      const shown = found && { ...found.variant, title: found.variant.title ?? found.card.title };
      const raw = shown && (await rawReportOf(sourceMaps, found.project.id, shown));
      if (!found || !raw) return notFound(req, reply);
      const page = rawPage(found.project, found.card, found.variant, raw, csrfOf(req));
      return send(reply, 200, page);
    },
  );
}
