import type { ReactNode } from "react";

/** A page heading with its explanation, as every account page starts. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
      {children ? <div className="mt-2 text-muted">{children}</div> : null}
    </div>
  );
}

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

/** "12 Mar 2026, 14:05 UTC": server-rendered, so one fixed time zone, stated. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return `${date.toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" })} UTC`;
}

export function formDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/** `?notice=` messages after a row action (revoke) redirected back to its page. */
export function noticeFrom(params: Record<string, string | string[] | undefined>, messages: Record<string, { tone: "success" | "error"; text: string }>) {
  const value = params.notice;
  const key = Array.isArray(value) ? value[0] : value;
  return key ? messages[key] : undefined;
}
