import { getTranslations } from "next-intl/server";
import { FinderNotice } from "@/components/finder/panels";

/** An unknown or mistyped conversation link: said in the finder's language, answered with a 404. */
export default async function ThreadNotFound() {
  const t = await getTranslations("Thread");
  return (
    <FinderNotice heading={t("notFoundHeading")}>
      <p>{t("notFoundBody")}</p>
    </FinderNotice>
  );
}
