"use client";

import { useState } from "react";

/**
 * Copies text to the clipboard and says so in a live region. When the clipboard is unavailable
 * (an http page, a refused permission) it says that instead; the text stays selectable on the page.
 * The messages default to English; the finder's pages pass their own language's.
 */
export function CopyButton({
  text,
  label,
  copiedLabel = "Copied.",
  failedLabel = "Copying is not available here: select the text and copy it.",
}: {
  text: string;
  label: string;
  copiedLabel?: string;
  failedLabel?: string;
}) {
  const [result, setResult] = useState<"" | "copied" | "failed">("");
  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        className="btn-secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setResult("copied");
          } catch {
            setResult("failed");
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="text-sm text-muted">
        {result === "copied" ? copiedLabel : result === "failed" ? failedLabel : ""}
      </span>
    </div>
  );
}
