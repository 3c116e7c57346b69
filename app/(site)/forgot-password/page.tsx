import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/forms/action-form";
import { AuthCard, textLinkClass } from "@/components/forms/auth-card";
import { forgotPasswordAction } from "./actions";

export const metadata: Metadata = { title: "Forgot your password?" };

export default function ForgotPasswordPage() {
  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={
        <p>
          Remembered it?{" "}
          <Link href="/login" className={textLinkClass}>
            Back to sign in
          </Link>
        </p>
      }
    >
      <ActionForm
        action={forgotPasswordAction}
        fields={[{ name: "email", label: "E-mail address", type: "email", autoComplete: "email", spellCheck: false }]}
        submitLabel="Send the reset link"
        pendingLabel="Sending…"
        successContent={
          <p className="text-sm text-muted">
            The link works for one hour and only once. If nothing arrives within a few minutes, check your spam folder or{" "}
            <Link href="/forgot-password" className={textLinkClass}>
              try again
            </Link>
            .
          </p>
        }
      />
    </AuthCard>
  );
}
