import type { Metadata } from "next";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { ActionForm } from "@/components/forms/action-form";
import { requireUserContext } from "@/lib/http/page-context";
import { deleteAccountAction } from "./actions";

export const metadata: Metadata = { title: "Your data" };

export default async function DataPage() {
  await requireUserContext("/dashboard/account/data");
  return (
    <>
      <PageHeading title="Your data">Take a copy of everything your account holds, or delete the account for good.</PageHeading>
      <div className="flex flex-col gap-6">
        <Panel
          id="export"
          title="Download your data"
          description="One JSON file with your profile, tags, orders, messages, notifications, sessions and API keys (never the keys themselves)."
        >
          {/* A file download, not a page: a plain link, so the browser saves what the server sends. */}
          <a href="/dashboard/account/export" download className="btn-secondary">
            Download my data (JSON)
          </a>
        </Panel>
        <Panel
          id="delete"
          title="Delete your account"
          tone="danger"
          description="This permanently deletes your account and everything it holds, and signs you out on every device. It cannot be undone: download your data first if you want a copy."
        >
          <ActionForm
            action={deleteAccountAction}
            formLabel="Delete your account"
            fields={[
              { name: "currentPassword", label: "Current password", type: "password", autoComplete: "current-password", maxLength: 128 },
              {
                name: "confirmation",
                label: "Type DELETE to confirm",
                hint: "In capital letters, to show that you mean it.",
                autoComplete: "off",
                spellCheck: false,
                autoCapitalize: "characters",
                maxLength: 20,
              },
            ]}
            submitLabel="Delete my account permanently"
            pendingLabel="Deleting…"
            variant="danger"
          />
        </Panel>
      </div>
    </>
  );
}
