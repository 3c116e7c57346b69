"use client";

import { useState, type ReactNode } from "react";
import { TextAreaField } from "@/components/forms/field";
import { Markdown } from "./markdown";
import "./markdown-prose.css";

export interface MarkdownFieldProps {
  id: string;
  name: string;
  label: string;
  hint: ReactNode;
  errors?: string[];
  rows: number;
  maxLength: number;
  defaultValue: string;
  /** What the empty preview says. */
  placeholder: string;
  /** data-testid of the preview box, for the e2e specs. */
  previewTestId: string;
}

/**
 * A Markdown source field beside its live preview, rendered by the same sanitising <Markdown> the site and
 * the e-mails use, so what the author sees is what readers get. Without JavaScript it is a plain textarea.
 */
export function MarkdownField({ id, name, label, hint, errors, rows, maxLength, defaultValue, placeholder, previewTestId }: MarkdownFieldProps) {
  const [source, setSource] = useState(defaultValue);
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <TextAreaField id={id} name={name} label={label} hint={hint} errors={errors} rows={rows} maxLength={maxLength} mono spellCheck defaultValue={defaultValue} onValueChange={setSource} />
      <section aria-labelledby={`${id}-preview-heading`} className="flex min-w-0 flex-col gap-1.5">
        <h2 id={`${id}-preview-heading`} className="text-sm font-semibold text-ink">
          Preview
        </h2>
        <div data-testid={previewTestId} className="max-h-[36rem] min-h-40 overflow-y-auto rounded-lg border border-line bg-white p-4 text-ink">
          {source.trim() ? <Markdown source={source} className="markdown-prose" /> : <p className="text-muted">{placeholder}</p>}
        </div>
      </section>
    </div>
  );
}
