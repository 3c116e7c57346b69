import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { MessageForm } from "@/components/finder/message-form";
import { FinderCard, SafetyAdvice } from "@/components/finder/panels";
import { findTagByCodeAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Found");
  return { title: t("title") };
}

/** For a finder without a camera: the short address printed on every label, where the code is typed. */
export default async function FoundPage() {
  const t = await getTranslations("Found");
  const finder = await getTranslations("Finder");
  return (
    <>
      <FinderCard labelledBy="found-heading">
        <h1 id="found-heading" className="text-2xl font-bold text-ink">
          {t("title")}
        </h1>
        <p className="text-muted">{t("intro")}</p>
        <MessageForm
          action={findTagByCodeAction}
          formLabel={t("title")}
          submitLabel={t("submit")}
          pendingLabel={finder("sending")}
          fields={[{ name: "code", kind: "text", label: t("codeLabel"), hint: t("codeHint"), maxLength: 20, required: true, autoComplete: "off", autoCapitalize: "characters" }]}
        />
      </FinderCard>
      <SafetyAdvice heading={finder("safetyHeading")} points={[finder("safetyPublicPlace"), finder("safetyNoPayment"), finder("safetyStayHere")]} />
    </>
  );
}
