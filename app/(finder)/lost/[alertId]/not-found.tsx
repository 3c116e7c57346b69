import { getTranslations } from "next-intl/server";
import { FinderNotice } from "@/components/finder/panels";

/** An unknown, removed or malformed alert address, said in the visitor's language. */
export default async function LostAlertNotFound() {
  const t = await getTranslations("Lost");
  return (
    <FinderNotice heading={t("notFoundHeading")}>
      <p>{t("notFoundBody")}</p>
    </FinderNotice>
  );
}
