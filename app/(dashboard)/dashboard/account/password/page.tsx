import type { Metadata } from "next";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { ActionForm } from "@/components/forms/action-form";
import { passwordRules } from "@/components/forms/auth-card";
import { requireUserContext } from "@/lib/http/page-context";
import { changePasswordAction } from "./actions";

export const metadata: Metadata = { title: "Password" };

export default async function PasswordPage() {
  await requireUserContext("/dashboard/account/password");
  return (
    <>
      <PageHeading title="Password">Changing your password keeps you signed in here and signs out every other device.</PageHeading>
      <Panel id="change-password" title="Change your password">
        <ActionForm
          action={changePasswordAction}
          formLabel="Change your password"
          fields={[
            { name: "currentPassword", label: "Current password", type: "password", autoComplete: "current-password", maxLength: 128 },
            { name: "newPassword", label: "New password", type: "password", autoComplete: "new-password", hint: passwordRules, maxLength: 128 },
            { name: "confirmPassword", label: "Repeat the new password", type: "password", autoComplete: "new-password", maxLength: 128 },
          ]}
          submitLabel="Change password"
          pendingLabel="Changing…"
          keepFieldsOnSuccess
        />
      </Panel>
    </>
  );
}
