"use client";

import { useState, type ReactNode } from "react";

/**
 * A part of a page folded under its summary (a native `<details>`, so it opens without JavaScript), as a
 * card. `open`: shown open when the page is drawn, and opened when it becomes true (an answer that points
 * into it); it never closes by itself, so a form inside that saves in place stays in view when the page
 * behind it changes (a tag set up by its details form is no longer "setting up", yet the answer stays open).
 * `summary`: text, or a heading (a summary holds phrasing content and one heading) with `min-w-0 flex-1`.
 */
export function Disclosure({ id, open = false, summary, children }: { id?: string; open?: boolean; summary: ReactNode; children: ReactNode }) {
  const [isOpen, setOpen] = useState(open);
  // React's way to follow a prop in state: on the render where `open` turns true, open too.
  const [asked, setAsked] = useState(open);
  if (open !== asked) {
    setAsked(open);
    if (open) setOpen(true);
  }
  return (
    <details id={id} open={isOpen} onToggle={(event) => setOpen(event.currentTarget.open)} className="group rounded-xl border border-line bg-white shadow-sm">
      <summary className="flex min-h-14 cursor-pointer list-none items-center gap-3 px-5 py-3 text-lg font-semibold text-ink [&::-webkit-details-marker]:hidden">
        {typeof summary === "string" ? <span className="min-w-0 flex-1">{summary}</span> : summary}
        <span aria-hidden="true" className="shrink-0 text-base text-muted transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="flex flex-col gap-6 border-t border-line p-4 sm:p-5">{children}</div>
    </details>
  );
}
