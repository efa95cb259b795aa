/** Live tool search: case-insensitive containment of the query in the tool's (translated) name. */
export function filterByName<T>(items: readonly T[], query: string, nameOf: (item: T) => string): T[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [...items];
  return items.filter((item) => nameOf(item).toLocaleLowerCase().includes(q));
}
