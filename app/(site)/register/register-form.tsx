"use client";

import { useActionState, useRef, useState } from "react";
import { passwordRules } from "@/components/forms/auth-card";
import { TextField } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { fieldError, idleFormState } from "@/lib/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { registerAction } from "./actions";

export function RegisterForm({ next }: { next: string }) {
  const [state, formAction] = useActionState(registerAction, idleFormState);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnResult(formRef, state);
  const value = (name: string) => state.values?.[name];
  // The password is never sent back in the form's state, and React resets uncontrolled fields after the
  // action: held here, it survives a mistake in another field instead of having to be typed again.
  const [password, setPassword] = useState("");

  return (
    <form ref={formRef} action={formAction} noValidate className="flex flex-col gap-5">
      <input type="hidden" name="next" value={next} />
      {state.status === "error" && state.message ? <FormAlert tone="error" title={state.message} /> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id="register-first-name"
          name="firstName"
          label="First name"
          autoComplete="given-name"
          maxLength={100}
          required
          defaultValue={value("firstName")}
          errors={fieldError(state, "firstName")}
        />
        <TextField
          id="register-last-name"
          name="lastName"
          label="Last name"
          autoComplete="family-name"
          maxLength={100}
          required
          defaultValue={value("lastName")}
          errors={fieldError(state, "lastName")}
        />
      </div>
      <TextField
        id="register-email"
        name="email"
        type="email"
        label="E-mail address"
        hint="We send a link to confirm it. It is never shown to people who find your things."
        autoComplete="email"
        spellCheck={false}
        required
        defaultValue={value("email")}
        errors={fieldError(state, "email")}
      />
      <TextField
        id="register-password"
        name="password"
        type="password"
        label="Password"
        hint={passwordRules}
        autoComplete="new-password"
        maxLength={128}
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        errors={fieldError(state, "password")}
      />
      <SubmitButton pendingLabel="Creating your account…" className="w-full">
        Create account
      </SubmitButton>
    </form>
  );
}
