import { SelectField } from "@/components/forms/field";

/** An admin page's heading: the "Admin" eyebrow, the title and one line on what the page is for. */
export function AdminHeading({ title, intro }: { title: string; intro: string }) {
  return (
    <div>
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Admin</p>
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
      <p className="mt-2 text-muted">{intro}</p>
    </div>
  );
}

/** A plain GET form of filters for an admin list (works without JavaScript), with its Filter button. */
export function FilterForm({ action, label, children }: { action: string; label: string; children: React.ReactNode }) {
  return (
    <form method="get" action={action} aria-label={label} className="flex flex-col gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:flex-row sm:items-end">
      {children}
      <button type="submit" className="btn-secondary">
        Filter
      </button>
    </form>
  );
}

/** One labelled choice in a FilterForm. */
export const FilterSelect = SelectField;

/** "3 orders, page 1 of 2." under the filters, announced when it changes. */
export function ResultCount({ total, page, totalPages, noun, estimate = false }: { total: number; page: number; totalPages: number; noun: [singular: string, plural: string]; estimate?: boolean }) {
  const about = estimate ? "about " : "";
  return (
    <p className="text-sm text-muted" role="status">
      {total === 0 ? `No ${noun[1]} match.` : `${estimate ? "About " : ""}${total} ${total === 1 ? noun[0] : noun[1]}${totalPages > 1 ? `, page ${page} of ${about}${totalPages}` : ""}.`}
    </p>
  );
}
