// An error thrown from a timer, outside any request's handling: an uncaught exception.
function warmUpCache(): void {
  throw new Error('Cache warm-up failed');
}

export async function GET(request: Request): Promise<Response> {
  const delay = Number(new URL(request.url).searchParams.get('delay') ?? '10');
  setTimeout(warmUpCache, delay);
  return Response.json({ scheduled: true });
}
