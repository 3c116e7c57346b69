"use client";

/** Opens the browser's print dialog; the page's print styles leave only the label. */
export function PrintButton() {
  return (
    <button type="button" className="btn-primary" onClick={() => window.print()}>
      Print
    </button>
  );
}
