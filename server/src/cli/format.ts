import type { CardWithVariants } from '../store/types.ts';

/** A plain text table: columns padded to their widest cell. */
export function table(head: string[], rows: (string | number | null)[][]): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (c === null ? '-' : String(c))))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  '))
    .join('\n');
}

const short = (s: string | null, n: number) =>
  s === null ? null : s.length > n ? `${s.slice(0, n - 1)}…` : s.replace(/\s+/g, ' ');

/** Cards with their variants indented beneath them. */
export function cardsTable(cards: CardWithVariants[]): string {
  if (cards.length === 0) return 'No cards yet.';
  const rows: (string | number | null)[][] = [];
  for (const c of cards) {
    rows.push([
      `#${c.id}`,
      c.status,
      c.regressions,
      c.severity,
      c.priority,
      c.occurrence_count,
      c.description_type,
      short(c.title, 50),
      c.tags.join(','),
    ]);
    for (const v of c.variants) {
      const where = v.file_name ? `${v.file_name}${v.line_number ? `:${v.line_number}` : ''}` : '';
      const label = v.aggregate ? 'Other variants' : short(v.description ?? v.title, 40);
      rows.push([
        '',
        '',
        '',
        '',
        '',
        `  ${v.count}`,
        'variant',
        `  ${label}${where ? ` @ ${where}` : ''}`,
        '',
      ]);
    }
  }
  return table(
    ['CARD', 'STATUS', 'REGRESSIONS', 'SEVERITY', 'PRIORITY', 'COUNT', 'TYPE', 'TITLE', 'TAGS'],
    rows,
  );
}
