import type { ReactNode } from "react";

/** A white card for one part of a page, labelled by its heading. */
export function Panel({ id, title, description, children, tone = "default" }: { id: string; title: string; description?: ReactNode; children: ReactNode; tone?: "default" | "danger" }) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className={`rounded-xl border bg-white p-5 shadow-sm sm:p-6 ${tone === "danger" ? "border-danger-700/40" : "border-line"}`}
    >
      <h2 id={`${id}-heading`} className={`text-lg font-semibold ${tone === "danger" ? "text-danger-700" : "text-ink"}`}>
        {title}
      </h2>
      {description ? <div className="mt-1 text-sm text-muted">{description}</div> : null}
      <div className="mt-5">{children}</div>
    </section>
  );
}
