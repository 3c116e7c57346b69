import { getTranslations } from "next-intl/server";
import { MessageForm } from "./message-form";
import { FinderCard } from "./panels";
import type { FormState } from "@/lib/forms/form-state";

/**
 * "Message the owner": one card for the finder page and the public lost-pet page, so both offer the same
 * fields and limits as POST …/contact. `closedText` replaces the form when the owner cannot be written to.
 */
export async function ContactOwnerCard({
  headingId,
  action,
  hidden,
  closedText,
}: {
  headingId: string;
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  hidden: Record<string, string>;
  closedText: string | null;
}) {
  const t = await getTranslations("Finder");
  return (
    <FinderCard labelledBy={headingId}>
      <h2 id={headingId} className="text-xl font-bold text-ink">
        {t("contactHeading")}
      </h2>
      {closedText === null ? (
        <>
          <p className="text-muted">{t("contactIntro")}</p>
          <MessageForm
            action={action}
            formLabel={t("contactHeading")}
            hidden={hidden}
            submitLabel={t("send")}
            pendingLabel={t("sending")}
            fields={[
              { name: "message", kind: "textarea", label: t("messageLabel"), hint: t("messageHint"), maxLength: 2000, required: true },
              { name: "finderName", kind: "text", label: t("nameLabel"), optionalLabel: t("optional"), maxLength: 100, autoComplete: "given-name" },
              { name: "finderEmail", kind: "email", label: t("emailLabel"), optionalLabel: t("optional"), hint: t("emailHint"), maxLength: 254, autoComplete: "email" },
            ]}
          />
        </>
      ) : (
        <p className="text-ink">{closedText}</p>
      )}
    </FinderCard>
  );
}
