"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef, useState } from "react";
import { textLinkClass } from "@/components/forms/auth-card";
import { TextField } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { fieldError } from "@/lib/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { signInAction, type LoginState } from "./actions";

const initialState: LoginState = { status: "idle", step: "password" };

/**
 * Step one asks for the e-mail and password; when the account has two-factor on, step two asks for
 * the code. The e-mail and password typed in step one are kept in memory and sent again with the
 * code, so nothing has to be retyped; "Use a different account" goes back to step one.
 */
export function LoginForm({ next, notice }: { next: string; notice?: { tone: "success" | "error"; text: string } }) {
  const [state, formAction] = useActionState(signInAction, initialState);
  const [credentials, setCredentials] = useState<{ email: string; password: string } | null>(null);
  // The state the user stepped back from; while it is current, step one shows again.
  const [leftState, setLeftState] = useState<LoginState | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const codeInputRef = useRef<HTMLInputElement>(null);
  useFocusOnResult(formRef, state);

  const onCodeStep = state.step === "code" && leftState !== state;
  // Without JavaScript (or after a reload) the typed password is gone: step two asks for it again.
  const askCredentialsAgain = onCodeStep && !credentials;

  useEffect(() => {
    if (onCodeStep && state.status === "idle") codeInputRef.current?.focus();
  }, [onCodeStep, state]);

  return (
    <form
      ref={formRef}
      action={formAction}
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        if (onCodeStep) return;
        const data = new FormData(event.currentTarget);
        setCredentials({ email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") });
      }}
    >
      <input type="hidden" name="next" value={next} />
      {/* A notice from the page that sent us here, until the form has been used. */}
      {notice && state === initialState ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
      {state.status === "error" && state.message ? <FormAlert tone="error" title={state.message} /> : null}

      {onCodeStep ? (
        <>
          <div>
            <h2 className="text-lg font-semibold text-ink">Two-factor authentication</h2>
            <p className="mt-1 text-sm text-muted">
              {credentials ? (
                <>
                  Signing in as <span className="font-semibold text-ink break-all">{credentials.email}</span>.{" "}
                </>
              ) : null}
              Enter the 6-digit code from your authenticator app, or one of your backup codes.
            </p>
          </div>
          {askCredentialsAgain ? (
            <CredentialFields state={state} />
          ) : (
            <>
              <input type="hidden" name="email" value={credentials?.email ?? ""} />
              <input type="hidden" name="password" value={credentials?.password ?? ""} />
            </>
          )}
          <TextField
            ref={codeInputRef}
            id="login-code"
            name="twoFactorCode"
            label="Authentication code"
            hint="A 6-digit code, or a backup code such as K7QF-2M9X."
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            required
            errors={fieldError(state, "twoFactorCode")}
          />
          <SubmitButton pendingLabel="Checking…" className="w-full">
            Verify and sign in
          </SubmitButton>
          <button
            type="button"
            className="self-start text-sm font-semibold text-brand-700 underline hover:text-brand-800"
            onClick={() => {
              setLeftState(state);
              setCredentials(null);
              // The button goes away with step two; keep keyboard focus in the form.
              setTimeout(() => document.getElementById("login-email")?.focus(), 0);
            }}
          >
            Use a different account
          </button>
        </>
      ) : (
        <>
          <CredentialFields state={state} />
          <SubmitButton pendingLabel="Signing in…" className="w-full">
            Sign in
          </SubmitButton>
        </>
      )}
    </form>
  );
}

function CredentialFields({ state }: { state: LoginState }) {
  return (
    <>
      <TextField
        id="login-email"
        name="email"
        type="email"
        label="E-mail address"
        autoComplete="username"
        spellCheck={false}
        required
        defaultValue={state.values?.email}
        errors={fieldError(state, "email")}
      />
      <div className="flex flex-col gap-1.5">
        <TextField
          id="login-password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          errors={fieldError(state, "password")}
        />
        <Link href="/forgot-password" className={`self-end text-sm ${textLinkClass}`}>
          Forgot your password?
        </Link>
      </div>
    </>
  );
}
