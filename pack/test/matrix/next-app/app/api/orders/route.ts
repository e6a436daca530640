// Fails on every GET; it reads the request, so it runs per request under cacheComponents.
export async function GET(request: Request): Promise<Response> {
  const limit = Number(new URL(request.url).searchParams.get('limit') ?? 'x');
  if (Number.isNaN(limit)) throw new SyntaxError('limit must be a number');
  return Response.json({ limit });
}
