// A route handler that fails on every GET.
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const rows: { total: number }[] = JSON.parse('[]');
  return Response.json({ total: rows[0]!.total });
}
