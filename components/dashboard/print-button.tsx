"use client";

/** Opens the browser's print dialog; the page's print styles leave only what is to go on paper. */
export function PrintButton({ label = "Print" }: { label?: string }) {
  return (
    <button type="button" className="btn-primary" onClick={() => window.print()}>
      {label}
    </button>
  );
}
