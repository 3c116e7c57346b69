"use client";

import { useActionState, useEffect, useRef } from "react";
import { TextField } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { fieldError } from "@/lib/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { CopyButton } from "@/components/copy-button";
import { createApiKeyAction, type CreateKeyState } from "./actions";

const idle: CreateKeyState = { status: "idle" };

/** Creates a key and shows it this once, in a read-only field that is easy to select and copy. */
export function CreateKeyForm({ today, timeZone }: { today: string; timeZone: string }) {
  const [state, formAction] = useActionState(createApiKeyAction, idle);
  const formRef = useRef<HTMLFormElement>(null);
  const keyInputRef = useRef<HTMLInputElement>(null);
  useFocusOnResult(formRef, state);
  const created = state.status === "success" ? state.created : undefined;

  useEffect(() => {
    if (created) keyInputRef.current?.select();
  }, [created]);

  return (
    <div className="flex flex-col gap-6">
      {created ? (
        <div className="flex flex-col gap-3 rounded-lg border border-green-700 bg-green-50 p-4">
          <p role="status" className="text-sm font-semibold text-green-900">
            {state.message}
          </p>
          <TextField
            ref={keyInputRef}
            id="new-api-key"
            name="newApiKey"
            label="Your new API key"
            hint="Copy it now and keep it secret: it is not shown again. Send it in the X-API-Key header."
            readOnly
            value={created.key}
            spellCheck={false}
            inputClassName="font-mono text-sm"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton text={created.key} label="Copy the key" />
        </div>
      ) : null}
      <form ref={formRef} action={formAction} noValidate className="flex flex-col gap-5">
        {state.status === "error" && state.message ? <FormAlert tone="error" title={state.message} /> : null}
        <TextField
          id="api-key-name"
          name="name"
          label="Name"
          hint="What the key is for, e.g. “Home Assistant” or “Inventory script”."
          maxLength={100}
          required
          defaultValue={state.status === "error" ? state.values?.name : ""}
          errors={fieldError(state, "name")}
        />
        <TextField
          id="api-key-expiry"
          name="expiresOn"
          type="date"
          label="Expires on"
          optional
          hint={`The key stops working at the end of this day in your time zone (${timeZone.replaceAll("_", " ")}). Leave empty for a key that does not expire.`}
          min={today}
          defaultValue={state.status === "error" ? state.values?.expiresOn : ""}
          errors={fieldError(state, "expiresOn")}
        />
        <div>
          <SubmitButton pendingLabel="Creating…">Create API key</SubmitButton>
        </div>
      </form>
    </div>
  );
}
