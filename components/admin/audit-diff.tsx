/**
 * An audit entry's before and after, field by field: the fields that changed first and marked (with a
 * word, not only a colour), the unchanged ones folded away.
 */

type Fields = Record<string, unknown>;

function asFields(value: unknown): Fields | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "object" && !Array.isArray(value)) return value as Fields;
  return { value };
}

const MAX_TEXT = 300;

function show(value: unknown): string {
  if (value === undefined) return "—";
  if (value === null) return "null";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const old = asFields(before);
  const now = asFields(after);
  const keys = [...new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})])];
  const changed = keys.filter((key) => !same(old?.[key], now?.[key]));
  const unchanged = keys.filter((key) => same(old?.[key], now?.[key]));
  const note = !old && now ? "Created." : old && !now ? "Deleted." : changed.length === 0 ? "Nothing changed." : null;

  const rows = (list: string[], highlight: boolean) =>
    list.map((key) => (
      <tr key={key} data-changed={highlight ? "true" : undefined} className={highlight ? "bg-reward-50" : undefined}>
        <th scope="row" className="px-2 py-1.5 align-top font-semibold break-all text-ink">
          {key}
          {highlight ? <span className="ml-1 text-xs font-semibold text-reward-800">(changed)</span> : null}
        </th>
        <td className="px-2 py-1.5 align-top font-mono text-xs break-all text-muted">{old ? show(old[key]) : "—"}</td>
        <td className={`px-2 py-1.5 align-top font-mono text-xs break-all ${highlight ? "font-semibold text-ink" : "text-muted"}`}>{now ? show(now[key]) : "—"}</td>
      </tr>
    ));

  return (
    <div className="flex flex-col gap-2">
      {note ? <p className="text-sm text-muted">{note}</p> : null}
      {keys.length ? (
        <div className="overflow-x-auto">
          <table className="w-full table-fixed text-left text-sm">
            <caption className="sr-only">Fields before and after</caption>
            <thead>
              <tr className="border-b border-line">
                <th scope="col" className="w-1/4 px-2 py-1.5 font-semibold text-ink">
                  Field
                </th>
                <th scope="col" className="px-2 py-1.5 font-semibold text-ink">
                  Before
                </th>
                <th scope="col" className="px-2 py-1.5 font-semibold text-ink">
                  After
                </th>
              </tr>
            </thead>
            <tbody>{rows(changed, true)}</tbody>
          </table>
          {unchanged.length ? (
            <details className="mt-2 text-sm">
              <summary className="cursor-pointer font-semibold text-brand-700">{unchanged.length} unchanged {unchanged.length === 1 ? "field" : "fields"}</summary>
              <table className="mt-1 w-full table-fixed text-left text-sm">
                <caption className="sr-only">Unchanged fields</caption>
                <tbody>{rows(unchanged, false)}</tbody>
              </table>
            </details>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
