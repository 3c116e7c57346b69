import { getTranslations } from "next-intl/server";
import { FinderNotice } from "@/components/finder/panels";

/** An unknown scan address: say so in the finder's language and offer the typed-code path. */
export default async function ScanNotFound() {
  const t = await getTranslations("Finder");
  return (
    <FinderNotice heading={t("notFoundHeading")}>
      <p>{t("notFoundBody")}</p>
      <p>
        <a href="/found" className="btn-primary">
          {t("typeCode")}
        </a>
      </p>
    </FinderNotice>
  );
}
