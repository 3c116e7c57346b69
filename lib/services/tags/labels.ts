import { and, eq, inArray } from "drizzle-orm";
import { schema } from "@/db/client";
import type { Tag } from "@/db/schema";
import { requireUser, type ServiceContext } from "@/lib/services/context";
import { NotFoundError } from "@/lib/services/errors";
import { ownedTag, TAG_NOT_FOUND } from "./access";
import { formatTagCode, foundAddress, scanUrl } from "./codes";
import type { FinderLocale } from "@/lib/i18n/locales";
import { labelWords } from "./label-words";
import { labelPdf, labelPng, labelSheetPdf, labelSvg, type LabelContent, type LabelFormat, type LabelSize, type Paper } from "./label-render";

export interface LabelFile {
  contentType: string;
  body: string | Uint8Array;
  /** A name for the download: the printed code, the size and the paper say what it is. */
  filename: string;
}

const contentTypes: Record<LabelFormat, string> = { pdf: "application/pdf", png: "image/png", svg: "image/svg+xml" };

/** What one tag's label shows, the finder's words in the language the owner chose to print in. */
export function labelContent(tag: Pick<Tag, "code" | "encryptedId" | "itemName">, lang: FinderLocale): LabelContent {
  return { code: formatTagCode(tag.code), scanUrl: scanUrl(tag.encryptedId), foundAddress: foundAddress(), itemName: tag.itemName, ...labelWords(lang) };
}

/** The tag's printable label (owner only) in one format and size. */
export async function tagLabel(ctx: ServiceContext, tagId: string, input: { format: LabelFormat; size: LabelSize; lang: FinderLocale }): Promise<LabelFile> {
  const tag = await ownedTag(ctx, tagId);
  const content = labelContent(tag, input.lang);
  const filename = `tag-${content.code}-label-${input.size}.${input.format}`;
  const body = input.format === "svg" ? labelSvg(content, input.size) : input.format === "png" ? await labelPng(content, input.size) : await labelPdf(content, input.size);
  return { contentType: contentTypes[input.format], body, filename };
}

/**
 * A PDF of the caller's tags' labels, as many per page as the paper holds, in the order asked (a repeated
 * id prints again). One id that is not the caller's tag fails the whole sheet as not found, the same
 * answer a random id gets.
 */
export async function tagLabelSheet(ctx: ServiceContext, input: { tagIds: string[]; size: LabelSize; paper: Paper; lang: FinderLocale }): Promise<LabelFile> {
  const { userId } = requireUser(ctx);
  const distinct = [...new Set(input.tagIds)];
  const rows = await ctx.db
    .select()
    .from(schema.tags)
    .where(and(inArray(schema.tags.id, distinct), eq(schema.tags.ownerId, userId)));
  const byId = new Map(rows.map((tag) => [tag.id, tag]));
  if (distinct.some((id) => !byId.has(id))) throw new NotFoundError(TAG_NOT_FOUND);
  const body = await labelSheetPdf(
    input.tagIds.map((id) => labelContent(byId.get(id)!, input.lang)),
    input.size,
    input.paper,
  );
  return { contentType: contentTypes.pdf, body, filename: `tag-labels-${input.paper}-${input.size}-${input.tagIds.length}.pdf` };
}
