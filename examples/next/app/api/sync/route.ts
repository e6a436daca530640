// A route handler that answers at once and leaves a promise nobody awaits: its rejection is an
// unhandled rejection of the server process (Next logs it and keeps serving).
export const dynamic = 'force-dynamic';

async function syncInventory(): Promise<void> {
  throw new Error('Inventory sync failed');
}

export async function GET(): Promise<Response> {
  void syncInventory();
  return Response.json({ started: true });
}
