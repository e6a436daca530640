// What a search should find, written apart from the stores' indexes: a card's text (title,
// description, file name, tags) as lower-case runs of letters and digits; a search's words each
// as such runs in a row, the last run of each a prefix; words with no letter or digit match all.
const runs = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export function matchesSearch(
  card: { title: string; description: string | null; fileName: string | null; tags: string[] },
  search: string,
): boolean {
  const doc = runs(
    [card.title, card.description ?? '', card.fileName ?? '', JSON.stringify(card.tags)].join(' '),
  );
  return search
    .split(/\s+/)
    .map(runs)
    .filter((parts) => parts.length > 0)
    .every((parts) =>
      doc.some((_, at) =>
        parts.every((part, i) =>
          i === parts.length - 1 ? doc[at + i]?.startsWith(part) : doc[at + i] === part,
        ),
      ),
    );
}
