"use client";

import { useActionState, useEffect, useRef } from "react";
import { Panel } from "@/components/dashboard/panel";
import { TextField } from "@/components/forms/field";
import { FormAlert } from "@/components/forms/form-alert";
import { fieldError } from "@/lib/forms/form-state";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFocusOnResult } from "@/components/forms/use-focus-on-result";
import { CopyButton } from "@/components/copy-button";
import { confirmTwoFactorAction, startTwoFactorAction, type ConfirmState, type SetupState } from "./actions";

const idleSetup: SetupState = { status: "idle" };
const idleConfirm: ConfirmState = { status: "idle" };

/**
 * Set-up in three steps on one page: get a secret (QR code and the same key as text), confirm a code
 * from the app, then see the ten backup codes, once. The card and its status are drawn here, from the
 * action's result: the page is not re-rendered after turning two-factor on (that would drop the codes),
 * so a status rendered by the page would still read "off".
 */
export function TwoFactorSetup() {
  const [setupState, startAction] = useActionState(startTwoFactorAction, idleSetup);
  const [confirmState, confirmAction] = useActionState(confirmTwoFactorAction, idleConfirm);
  const startRef = useRef<HTMLFormElement>(null);
  const confirmRef = useRef<HTMLFormElement>(null);
  const stepsHeadingRef = useRef<HTMLHeadingElement>(null);
  const codesHeadingRef = useRef<HTMLHeadingElement>(null);
  useFocusOnResult(startRef, setupState);
  useFocusOnResult(confirmRef, confirmState);

  const setup = setupState.setup;
  const backupCodes = confirmState.status === "success" ? confirmState.backupCodes : undefined;

  useEffect(() => {
    if (setup) stepsHeadingRef.current?.focus();
  }, [setup]);
  useEffect(() => {
    if (backupCodes) codesHeadingRef.current?.focus();
  }, [backupCodes]);

  if (backupCodes) {
    return (
      <Panel id="two-factor-status" title="Status: on">
        <div className="flex flex-col gap-4">
          <FormAlert tone="success" title="Two-factor authentication is on." />
          <h3 ref={codesHeadingRef} tabIndex={-1} className="text-lg font-semibold text-ink">
            Save your backup codes
          </h3>
          <p className="text-sm text-ink">
            If you lose your phone, each of these codes signs you in once instead of a code from the app.{" "}
            <strong>They are shown only now:</strong> print them, or keep them in a password manager.
          </p>
          <ol aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-lg border border-line bg-canvas p-4 font-mono text-base sm:grid-cols-5">
            {backupCodes.map((code) => (
              <li key={code} className="text-center tracking-wider text-ink">
                {code}
              </li>
            ))}
          </ol>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <CopyButton text={backupCodes.join("\n")} label="Copy the codes" />
            <a href="/dashboard/account/two-factor" className="btn-primary">
              I have saved them
            </a>
          </div>
        </div>
      </Panel>
    );
  }

  return (
    <Panel id="two-factor-setup" title="Turn on two-factor authentication" description="Status: off.">
      <div className="flex flex-col gap-6">
        <form ref={startRef} action={startAction} className="flex flex-col gap-4">
          {setupState.status === "error" && setupState.message ? <FormAlert tone="error" title={setupState.message} /> : null}
          {setup ? null : (
            <p className="text-sm text-ink">
              You need an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis.
            </p>
          )}
          <div>
            <SubmitButton variant={setup ? "secondary" : "primary"} pendingLabel="Preparing…">
              {setup ? "Start again with a new key" : "Set up two-factor authentication"}
            </SubmitButton>
          </div>
        </form>

        {setup ? (
          <div className="flex flex-col gap-5 border-t border-line pt-6">
            <h3 ref={stepsHeadingRef} tabIndex={-1} className="text-lg font-semibold text-ink">
              Connect your authenticator app
            </h3>
            <ol className="flex flex-col gap-5">
              <li className="flex flex-col gap-3">
                <p className="text-sm text-ink">
                  <span className="font-semibold">1. Scan this QR code</span> with your authenticator app, or on this phone open the app directly:
                </p>
                <p>
                  <a href={setup.otpauthUrl} className="btn-secondary" data-testid="otpauth-link">
                    Open in authenticator app
                  </a>
                </p>
                {/* A data: URL made on the server; next/image adds nothing for it. */}
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img
                  src={setup.qrCodeUrl}
                  alt="QR code that adds your Tag Service account to an authenticator app. If you cannot scan it, use the set-up key below."
                  width={240}
                  height={240}
                  className="h-48 w-48 rounded-lg border border-line bg-white sm:h-60 sm:w-60"
                />
              </li>
              <li className="flex flex-col gap-2">
                <p className="text-sm text-ink">
                  <span className="font-semibold">2. Or type the key</span> into the app (time-based, 6 digits).
                </p>
                <dl className="flex flex-col gap-1.5">
                  <dt className="text-sm font-semibold text-ink">Set-up key</dt>
                  <dd>
                    {/* Groups of four are easier to type; apps ignore the spaces. */}
                    <code
                      id="two-factor-secret"
                      className="block rounded-lg border border-line bg-canvas px-3 py-2 font-mono text-base tracking-wider break-words text-ink"
                    >
                      {setup.secret.match(/.{1,4}/g)?.join(" ")}
                    </code>
                  </dd>
                </dl>
                <CopyButton text={setup.secret} label="Copy the key" />
              </li>
              <li>
                <form ref={confirmRef} action={confirmAction} noValidate className="flex flex-col gap-4">
                  <p className="text-sm text-ink">
                    <span className="font-semibold">3. Enter the code</span> the app now shows for Tag Service.
                  </p>
                  {confirmState.status === "error" && confirmState.message ? <FormAlert tone="error" title={confirmState.message} /> : null}
                  <TextField
                    id="two-factor-code"
                    name="code"
                    label="6-digit code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={7}
                    pattern="[0-9 ]*"
                    required
                    errors={fieldError(confirmState, "code")}
                  />
                  <div>
                    <SubmitButton pendingLabel="Checking…">Turn on two-factor authentication</SubmitButton>
                  </div>
                </form>
              </li>
            </ol>
          </div>
        ) : null}
      </div>
    </Panel>
  );
}
