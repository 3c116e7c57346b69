import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/forms/action-form";
import { AuthCard, passwordRules, textLinkClass } from "@/components/forms/auth-card";
import { FormAlert } from "@/components/forms/form-alert";
import { firstParam } from "../login/safe-next";
import { resetPasswordAction } from "./actions";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false }, referrer: "no-referrer" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const token = firstParam((await searchParams).token)?.trim() ?? "";

  return (
    <AuthCard
      title="Choose a new password"
      description="After the change, every device signed in to your account is signed out."
      footer={
        <p>
          Link expired?{" "}
          <Link href="/forgot-password" className={textLinkClass}>
            Ask for a new reset link
          </Link>
        </p>
      }
    >
      {token ? (
        <ActionForm
          action={resetPasswordAction}
          hidden={{ token }}
          fields={[
            { name: "password", label: "New password", type: "password", autoComplete: "new-password", hint: passwordRules, maxLength: 128 },
            { name: "confirmPassword", label: "Repeat the new password", type: "password", autoComplete: "new-password", maxLength: 128 },
          ]}
          submitLabel="Set the new password"
          pendingLabel="Saving…"
        />
      ) : (
        <FormAlert tone="error" title="This page needs the link from the reset e-mail.">
          Open the link in the e-mail we sent you, or ask for a new one.
        </FormAlert>
      )}
    </AuthCard>
  );
}
