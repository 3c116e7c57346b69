"use client";

import { useActionState, useId, useRef } from "react";
import { inputClass, TextField } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { fieldError } from "@/lib/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { tagTypeLabels, tagTypes } from "@/components/tags/labels";
import type { MintedTag } from "@/lib/services/tags";
import { mintTagsAction, type MintState } from "./actions";

/** CSV with a header row; every value is quoted, so a comma or quote in it cannot shift columns. */
function toCsv(minted: MintedTag[]): string {
  const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
  const rows = [["id", "code", "encryptedId", "scanUrl"], ...minted.map((tag) => [tag.id, tag.code, tag.encryptedId, tag.scanUrl])];
  return `${rows.map((row) => row.map(quote).join(",")).join("\r\n")}\r\n`;
}

export function MintForm() {
  const [state, formAction] = useActionState<MintState, FormData>(mintTagsAction, { status: "idle" });
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  // React resets the form after its action, and a select goes back to the option it was first rendered
  // with (a changed defaultValue is not applied to a mounted select, and a controlled value is reset too),
  // so the next batch would quietly be GENERAL again: the select is rendered anew with the last batch's type.
  const chosenType = state.values?.tagType ?? "GENERAL";
  useFocusOnResult(formRef, state, { focusSuccess: true });
  const minted = state.status === "success" ? (state.minted ?? []) : [];
  const csvHref = minted.length ? `data:text/csv;charset=utf-8,${encodeURIComponent(toCsv(minted))}` : null;

  return (
    <div className="flex flex-col gap-6">
      <form ref={formRef} action={formAction} aria-label="Mint tags" className="flex flex-col gap-5" noValidate>
        {state.status === "error" ? <FormAlert tone="error" title={state.message ?? "That did not work."} /> : null}
        {state.status === "success" && state.message ? <FormAlert tone="success" title={state.message} /> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            id={`${id}-count`}
            name="count"
            label="How many"
            hint="1 to 1000."
            inputMode="numeric"
            defaultValue={state.values?.count ?? "10"}
            errors={fieldError(state, "count")}
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-type`} className="text-sm font-semibold text-ink">
              Type
            </label>
            <select key={chosenType} id={`${id}-type`} name="tagType" defaultValue={chosenType} className={inputClass}>
              {tagTypes.map((type) => (
                <option key={type} value={type}>
                  {tagTypeLabels[type]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div>
          <SubmitButton pendingLabel="Minting…" className="w-full sm:w-auto">
            Mint tags
          </SubmitButton>
        </div>
      </form>

      {csvHref ? (
        <section aria-labelledby="minted-heading" className="flex flex-col gap-4 border-t border-line pt-5">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="minted-heading" className="text-lg font-semibold text-ink">
              This batch
            </h2>
            <a href={csvHref} download={`tags-${new Date().toISOString().slice(0, 10)}-${minted.length}.csv`} className="btn-secondary">
              Download CSV
            </a>
          </div>
          <p className="text-sm text-muted">The list is shown only now; download it before leaving the page.</p>
          <ul aria-label="Minted codes" className="grid max-h-96 grid-cols-2 gap-2 overflow-y-auto font-mono text-sm sm:grid-cols-4">
            {minted.map((tag) => (
              <li key={tag.id} className="rounded border border-line bg-canvas px-2 py-1 text-ink">
                {tag.code}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
