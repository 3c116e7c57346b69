"use client";

import { useState } from "react";

/** Copies a link and says so; when the clipboard is unavailable the link stays visible to select by hand. */
export function CopyLink({ text, label, copiedLabel }: { text: string; label: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        className="btn-secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setCopied(true);
          } catch {
            setCopied(false);
          }
        }}
      >
        {label}
      </button>
      <span role="status" className="text-sm text-green-900">
        {copied ? copiedLabel : ""}
      </span>
    </div>
  );
}
