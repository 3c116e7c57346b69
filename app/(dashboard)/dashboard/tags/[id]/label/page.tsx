import type { Metadata } from "next";
import { BackLink } from "@/components/dashboard/back-link";
import { tagTypeLabels } from "@/components/tags/labels";
import { env } from "@/lib/env";
import { tagQrCode } from "@/lib/services/tags";
import { loadOwnedTag } from "../load";
import { PrintButton } from "@/components/dashboard/print-button";
import "./label.css";

export const metadata: Metadata = { title: "QR label" };

type Params = Promise<{ id: string }>;

/**
 * A printable label: the tag's QR code (inline SVG made on the server from its scan URL), the printed
 * code with the short address where a finder without a camera types it, and the item name. The print stylesheet hides everything but the label.
 */
export default async function TagLabelPage({ params }: { params: Params }) {
  const { id } = await params;
  const path = `/dashboard/tags/${id}/label`;
  const { ctx, tag } = await loadOwnedTag(id, path);
  const qr = await tagQrCode(ctx, tag.id, "svg");
  const svg = typeof qr.body === "string" ? qr.body : new TextDecoder().decode(qr.body);
  const name = tag.itemName ?? "Unnamed tag";
  // The short address printed under the code, for a finder without a camera (no scheme: shorter to type).
  const foundAddress = `${env.APP_URL.replace(/^https?:\/\//, "").replace(/\/+$/, "")}/found`;

  return (
    <div className="flex flex-col gap-6">
      <div className="no-print flex flex-col gap-4">
        <BackLink href={`/dashboard/tags/${tag.id}`}>Back to {name}</BackLink>
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">QR label</h1>
          <p className="mt-2 text-muted">Print it at full size; the code is readable from about 30 cm. Only the label goes on paper.</p>
        </div>
        <div>
          <PrintButton />
        </div>
      </div>

      <section aria-label={`Label for ${name}`} className="tag-label-sheet print-sheet mx-auto flex w-full max-w-xs flex-col items-center gap-3 rounded-xl border-2 border-dashed border-slate-400 bg-white p-6 text-center print:border-solid">
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
          No camera? Type the code at <span className="font-semibold">{foundAddress}</span>
        </p>
        <p className="text-lg font-semibold break-words text-ink">{name}</p>
        <p className="text-xs text-slate-700">{tagTypeLabels[tag.tagType]} · Scan to contact the owner</p>
      </section>
    </div>
  );
}
