import type { Metadata } from "next";
import { BackLink } from "@/components/dashboard/back-link";
import { PageHeading } from "@/components/dashboard/page-heading";
import { Panel } from "@/components/dashboard/panel";
import { FieldsForm } from "@/components/tags/fields-form";
import { tagTypeLabels, tagTypes } from "@/components/tags/labels";
import { requireUserContext } from "@/lib/http/page-context";
import { activateTagAction, bulkActivateAction } from "./actions";

export const metadata: Metadata = { title: "Activate a tag" };

const typeOptions = tagTypes.map((type) => ({ value: type, label: tagTypeLabels[type] }));

export default async function ActivateTagPage() {
  await requireUserContext("/dashboard/tags/activate");

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <BackLink href="/dashboard/tags">Your tags</BackLink>
      <PageHeading title="Activate a tag">Type the code printed on the tag. Upper or lower case and the dash do not matter.</PageHeading>
      <Panel id="activate-one" title="One tag">
        <FieldsForm
          action={activateTagAction}
          formLabel="Activate one tag"
          keepFieldsOnSuccess={false}
          fields={[
            { name: "code", label: "Tag code", hint: "10 letters and digits, like 7K3QX-M9P2T.", autoCapitalize: "characters", spellCheck: false, maxLength: 20, autoComplete: "off" },
            { name: "tagType", label: "What is it on?", kind: "select", options: typeOptions, defaultValue: "GENERAL" },
            { name: "itemName", label: "Item name", optional: true, maxLength: 100, hint: "What finders see first, like “Rex” or “Blue backpack”." },
          ]}
          submitLabel="Activate tag"
          pendingLabel="Activating…"
        />
      </Panel>
      <Panel id="activate-many" title="Several tags at once" description="Up to 100 codes, one per line. Each tag gets the same type; name them afterwards.">
        <FieldsForm
          action={bulkActivateAction}
          formLabel="Activate several tags"
          variant="secondary"
          fields={[
            { name: "codes", label: "Tag codes", kind: "textarea", rows: 5, autoCapitalize: "characters", spellCheck: false },
            { name: "tagType", label: "What are they on?", kind: "select", options: typeOptions, defaultValue: "GENERAL" },
          ]}
          submitLabel="Activate all"
          pendingLabel="Activating…"
        />
      </Panel>
    </div>
  );
}
