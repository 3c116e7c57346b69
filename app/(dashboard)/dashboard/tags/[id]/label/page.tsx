import type { Metadata } from "next";
import { BackLink } from "@/components/dashboard/back-link";
import { Panel } from "@/components/dashboard/panel";
import { tagTypeLabels } from "@/components/tags/labels";
import { SelectField } from "@/components/forms/field";
import { labelLanguageOptions } from "@/components/tags/label-languages";
import { isFinderLocale, type FinderLocale } from "@/lib/i18n/locales";
import { foundAddress, labelSizes, labelWords, tagQrCode, type LabelFormat, type LabelSize } from "@/lib/services/tags";
import { loadOwnedTag } from "../load";
import { PrintButton } from "@/components/dashboard/print-button";
import "./label.css";

export const metadata: Metadata = { title: "QR label" };

type Params = Promise<{ id: string }>;
type SearchParams = Promise<{ lang?: string | string[] }>;

/**
 * A printable label: a call to action for the finder over the tag's QR code (inline SVG made on the
 * server from its scan URL), the printed code with the short address where a finder without a camera
 * types it, and the item name. The finder's words are in the language the owner picks (`?lang=`, a plain
 * GET form, so it works without JavaScript); the downloads carry it. The print stylesheet hides everything but the label.
 */
export default async function TagLabelPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const { id } = await params;
  const requested = (await searchParams).lang;
  const lang: FinderLocale = isFinderLocale(requested) ? requested : "en";
  const words = labelWords(lang);
  const path = `/dashboard/tags/${id}/label`;
  const { ctx, tag } = await loadOwnedTag(id, path);
  const qr = await tagQrCode(ctx, tag.id, "svg");
  const svg = typeof qr.body === "string" ? qr.body : new TextDecoder().decode(qr.body);
  const name = tag.itemName ?? "Unnamed tag";

  return (
    <div className="flex flex-col gap-6">
      <div className="no-print flex flex-col gap-4">
        <BackLink href={`/dashboard/tags/${tag.id}`}>Back to {name}</BackLink>
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">QR label</h1>
          <p className="mt-2 text-muted">Print it at full size; the code is readable from about 30 cm. Only the label goes on paper.</p>
        </div>
        <form method="get" action={path} aria-label="Label language" className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <SelectField id="label-lang" label="Language for the finder" name="lang" options={labelLanguageOptions} defaultValue={lang} />
          <button type="submit" className="btn-secondary">
            Show
          </button>
        </form>
        <div>
          <PrintButton />
        </div>
      </div>

      <section lang={lang} aria-label={`Label for ${name}`} className="tag-label-sheet print-sheet mx-auto flex w-full max-w-xs flex-col items-center gap-3 rounded-xl border-2 border-dashed border-slate-400 bg-white p-6 text-center print:border-solid">
        <p className="text-sm font-bold text-ink" data-testid="call-to-action">
          {words.callToAction}
        </p>
        <div
          role="img"
          aria-label={`QR code for the tag ${tag.code}`}
          data-testid="tag-qr"
          className="w-full max-w-[14rem] [&>svg]:h-auto [&>svg]:w-full"
          // Our own qrcode output for our own URL: markup we generated, not user input.
          dangerouslySetInnerHTML={{ __html: svg }}
        />
        <p className="font-mono text-2xl font-bold tracking-widest text-ink" data-testid="tag-code">
          {tag.code}
        </p>
        <p className="text-xs text-slate-700" data-testid="found-address">
          {words.noCamera} <span className="font-semibold">{foundAddress()}</span>
        </p>
        <p className="text-lg font-semibold break-words text-ink">{name}</p>
        <p className="text-xs text-slate-700">{tagTypeLabels[tag.tagType]}</p>
      </section>

      <div className="no-print">
        <LabelDownloads tagId={tag.id} lang={lang} />
      </div>
    </div>
  );
}

const sizeUses: Record<LabelSize, string> = {
  small: "A collar tag, keys or earbuds case",
  medium: "A bag, a phone or a laptop",
  large: "A suitcase, a bike frame or a car window",
};
const formats: { format: LabelFormat; title: string }[] = [
  { format: "pdf", title: "PDF" },
  { format: "png", title: "PNG" },
  { format: "svg", title: "SVG" },
];

/**
 * The same label as files, in each size: PDF (vector, one page the sticker's size, for a label printer
 * or a print shop), PNG (600 dpi) and SVG (vector, for design tools). Plain links: the API answers them
 * as downloads through the session cookie.
 */
function LabelDownloads({ tagId, lang }: { tagId: string; lang: FinderLocale }) {
  return (
    <Panel id="label-downloads" title="Download the label" description="The call to action and the QR code, the code, the address for finders without a camera and the item name, as a file to print on sticker paper or send to a print shop. PDF and SVG stay sharp at any scale; the PNG is 600 dpi.">
      <ul className="flex flex-col divide-y divide-line" aria-label="Label sizes">
        {(Object.keys(labelSizes) as LabelSize[]).map((size) => {
          const { title, widthMm, heightMm } = labelSizes[size];
          const dimensions = `${widthMm} × ${heightMm} mm`;
          return (
            <li key={size} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-semibold text-ink">
                  {title} <span className="font-normal text-muted">· {dimensions}</span>
                </p>
                <p className="text-sm text-muted">{sizeUses[size]}</p>
              </div>
              <div className="flex flex-wrap gap-2">
                {formats.map(({ format, title: formatTitle }) => (
                  <a
                    key={format}
                    href={`/api/v1/tags/${tagId}/label?format=${format}&size=${size}&lang=${lang}`}
                    download
                    className="inline-flex min-h-11 min-w-16 items-center justify-center rounded-md border border-line px-3 text-sm font-semibold text-ink hover:border-brand-700 hover:bg-brand-50"
                    aria-label={`Download the ${title.toLowerCase()} label (${dimensions}) as ${formatTitle}`}
                  >
                    {formatTitle}
                  </a>
                ))}
              </div>
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}
