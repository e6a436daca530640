// A route handler on the edge runtime that fails on every GET.
export const runtime = 'edge';
export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  const limit = Number(new URL(request.url).searchParams.get('limit') ?? 'x');
  if (Number.isNaN(limit)) throw new SyntaxError('limit must be a number');
  return Response.json({ limit });
}
