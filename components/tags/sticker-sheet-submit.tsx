"use client";

import { useState } from "react";

/**
 * The sticker-sheet form's submit button. With JavaScript it says so at once when no tag is ticked,
 * instead of sending the form to the API's 400 answer; without it the form still works as a plain GET.
 */
export function StickerSheetSubmit({ field = "tagId" }: { field?: string }) {
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-2">
      <button
        type="submit"
        className="btn-primary"
        onClick={(event) => {
          const form = event.currentTarget.form;
          const ticked = form ? Array.from(form.elements).some((element) => element instanceof HTMLInputElement && element.name === field && element.checked) : true;
          if (!ticked) {
            event.preventDefault();
            setMessage("Tick at least one tag in the list below first.");
          } else {
            setMessage(null);
          }
        }}
      >
        Download sticker sheet (PDF)
      </button>
      <p role="status" className="text-sm font-semibold text-danger-700 empty:hidden">
        {message}
      </p>
    </div>
  );
}
