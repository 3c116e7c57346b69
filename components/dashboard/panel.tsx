import type { ReactNode } from "react";

/**
 * A white card for one part of a page, labelled by its heading. `nested`: a part of a larger panel, an h3
 * without a card of its own.
 */
export function Panel({
  id,
  title,
  description,
  children,
  tone = "default",
  nested = false,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  tone?: "default" | "danger";
  nested?: boolean;
}) {
  const Heading = nested ? "h3" : "h2";
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className={nested ? "border-t border-line pt-5" : `rounded-xl border bg-white p-5 shadow-sm sm:p-6 ${tone === "danger" ? "border-danger-700/40" : "border-line"}`}
    >
      <Heading id={`${id}-heading`} className={`${nested ? "text-base" : "text-lg"} font-semibold ${tone === "danger" ? "text-danger-700" : "text-ink"}`}>
        {title}
      </Heading>
      {description ? <div className="mt-1 text-sm text-muted">{description}</div> : null}
      <div className={nested ? "mt-4" : "mt-5"}>{children}</div>
    </section>
  );
}
