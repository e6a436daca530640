// A promise nobody awaits: its rejection is unhandled. Reads the request first, so it runs per
// request (under cacheComponents a GET handler that reads nothing is prerendered by next build).
async function syncInventory(): Promise<void> {
  throw new Error('Inventory sync failed');
}

export async function GET(request: Request): Promise<Response> {
  const store = new URL(request.url).searchParams.get('store');
  syncInventory(); // not awaited
  return Response.json({ started: true, store });
}
