import type { Metadata } from "next";
import Link from "next/link";
import { CursorPager, pageOrFirst } from "@/components/dashboard/pager";
import { DateTime } from "@/components/dashboard/date-time";
import { noticeFrom } from "@/components/dashboard/notices";
import { PageHeading } from "@/components/dashboard/page-heading";
import { SelectField } from "@/components/forms/field";
import { labelLanguageOptions } from "@/components/tags/label-languages";
import { FormAlert } from "@/components/forms/form-alert";
import { tagStatusLabels, tagStatusList, tagTypeLabels, tagTypes } from "@/components/tags/labels";
import { TagStatusBadge } from "@/components/tags/status-badge";
import { StickerSheetSubmit } from "@/components/tags/sticker-sheet-submit";
import { requireUserContext } from "@/lib/http/page-context";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { thumbnailsOf } from "@/lib/services/profiles";
import { labelSizes, listTags, papers, sheetGrid, type LabelSize, type Paper, type TagRecord } from "@/lib/services/tags";
import { listHref, listQuery, type SearchParams } from "./params";

export const metadata: Metadata = { title: "Your tags" };

export default async function TagsPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireUserContext("/dashboard/tags");
  const params = await searchParams;
  const query = listQuery(params);
  const list = await pageOrFirst((cursor) => listTags(ctx, { ...query, cursor }), query.cursor);
  const { items, total } = list;
  const [thumbnails, timeZone] = await Promise.all([thumbnailsOf(ctx, items.map((tag) => tag.id)), viewerTimeZone()]);
  const filtered = Boolean(query.status || query.tagType);
  const notice = noticeFrom(params, { released: { tone: "success", text: "The tag was released. Its code can be activated again." } });

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <PageHeading title="Your tags">Each tag links whoever scans it to the profile you write for the thing it is on.</PageHeading>
        <div className="mb-6 flex flex-wrap gap-3">
          <Link href="/dashboard/tags/activate" className="btn-primary">
            Activate a tag
          </Link>
          <Link href="/dashboard/tags/transfers" className="btn-secondary">
            Transfers
          </Link>
        </div>
      </div>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}

      {/* Keyed by the filters: after "Clear" (a client-side navigation) the selects show the list's filters, not the last ones chosen. */}
      <form key={`${query.status ?? ""}-${query.tagType ?? ""}`} method="get" action="/dashboard/tags" aria-label="Filter tags" className="flex flex-col gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:flex-row sm:items-end">
        <SelectField
          id="filter-status"
          label="Status"
          name="status"
          defaultValue={query.status ?? ""}
          options={[{ value: "", label: "Any status" }, ...tagStatusList.map((status) => ({ value: status, label: tagStatusLabels[status] }))]}
        />
        <SelectField
          id="filter-type"
          label="Type"
          name="type"
          defaultValue={query.tagType ?? ""}
          options={[{ value: "", label: "Any type" }, ...tagTypes.map((type) => ({ value: type, label: tagTypeLabels[type] }))]}
        />
        <div className="flex gap-3">
          <button type="submit" className="btn-secondary">
            Filter
          </button>
          {filtered ? (
            <Link href="/dashboard/tags" className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline hover:text-brand-800">
              Clear
            </Link>
          ) : null}
        </div>
      </form>

      {items.length > 0 ? <StickerSheetForm /> : null}

      <section aria-labelledby="tag-list-heading" className="rounded-xl border border-line bg-white p-5 shadow-sm sm:p-6">
        <h2 id="tag-list-heading" className="text-lg font-semibold text-ink">
          {filtered ? `${total} matching ${total === 1 ? "tag" : "tags"}` : `${total} ${total === 1 ? "tag" : "tags"}`}
        </h2>
        {items.length === 0 ? (
          <p className="mt-4 text-muted">
            {filtered ? "No tags match these filters." : "You have no tags yet. Activate one with the code printed on it."}
          </p>
        ) : (
          <ul className="mt-4 flex flex-col divide-y divide-line" aria-label="Tags">
            {items.map((tag) => (
              <TagRow key={tag.id} tag={tag} thumbnail={thumbnails.get(tag.id)} timeZone={timeZone} />
            ))}
          </ul>
        )}
        <CursorPager
          page={list.page}
          totalPages={Math.ceil(total / query.limit)}
          totalIsEstimate={list.totalIsEstimate}
          nextCursor={list.nextCursor}
          href={(cursor) => listHref({ status: query.status, tagType: query.tagType, cursor })}
          label="Tag pages"
          firstLabel="Newest tags"
          nextLabel="Older tags"
          className="mt-5 border-t border-line pt-4"
        />
      </section>
    </div>
  );
}

const STICKER_SHEET_FORM = "sticker-sheet";

/**
 * Several tags' labels on one PDF to print: tick tags in the list, choose the paper and the label size.
 * A plain GET form to the API (the session cookie authenticates it), so it works without JavaScript.
 */
function StickerSheetForm() {
  const sizes = Object.keys(labelSizes) as LabelSize[];
  const sizeOptions = sizes.map((size) => ({ value: size, label: `${labelSizes[size].title}, ${labelSizes[size].widthMm} × ${labelSizes[size].heightMm} mm` }));
  const perPage = (Object.keys(papers) as Paper[])
    .map((paper) => `${papers[paper].title} ${sizes.map((size) => sheetGrid(size, paper).perPage).join(", ")}`)
    .join("; ");
  return (
    <section aria-labelledby="sticker-sheet-heading" className="rounded-xl border border-line bg-white p-4 shadow-sm sm:p-5">
      <h2 id="sticker-sheet-heading" className="text-lg font-semibold text-ink">
        Sticker sheet
      </h2>
      <p className="mt-1 text-sm text-muted">
        Tick tags in the list below, then download their labels on one PDF to print on sticker paper and cut out. Small, medium and large labels per page: {perPage}.
      </p>
      <form id={STICKER_SHEET_FORM} method="get" action="/api/v1/tags/labels/sheet" aria-label="Sticker sheet" className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-end">
        <SelectField id="sheet-paper" label="Paper" name="paper" options={(Object.keys(papers) as Paper[]).map((paper) => ({ value: paper, label: papers[paper].title }))} defaultValue="a4" />
        <SelectField id="sheet-size" label="Label size" name="size" options={sizeOptions} defaultValue="small" />
        <SelectField id="sheet-lang" label="Language for the finder" name="lang" options={labelLanguageOptions} defaultValue="en" />
        <StickerSheetSubmit />
      </form>
    </section>
  );
}

function TagRow({ tag, thumbnail, timeZone }: { tag: TagRecord; thumbnail: string | undefined; timeZone: string }) {
  const name = tag.itemName ?? "Unnamed tag";
  const missing = tag.status === "LOST" || tag.status === "STOLEN";
  const action = "inline-flex min-h-10 items-center rounded-md border px-3 text-sm font-semibold";
  const quiet = `${action} border-line text-ink hover:border-brand-700 hover:bg-brand-50`;
  return (
    <li className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between" data-tag-id={tag.id}>
      <div className="flex min-w-0 items-center gap-3">
        {/* Belongs to the sticker-sheet form above the list (the form attribute), so a plain GET sends the ticked ids. */}
        <label className="-ml-2 flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center rounded-md hover:bg-brand-50">
          <input type="checkbox" name="tagId" value={tag.id} form={STICKER_SHEET_FORM} className="h-5 w-5 accent-brand-700" />
          <span className="sr-only">
            Put {name} ({tag.code}) on the sticker sheet
          </span>
        </label>
        {thumbnail ? (
          // eslint-disable-next-line @next/next/no-img-element -- served by our own route, already re-encoded and small
          <img src={thumbnail} alt="" className="h-14 w-14 shrink-0 rounded-lg border border-line object-cover" />
        ) : (
          <div aria-hidden="true" className="h-14 w-14 shrink-0 rounded-lg border border-dashed border-slate-400 bg-canvas" />
        )}
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <Link href={`/dashboard/tags/${tag.id}`} className="font-semibold break-words text-brand-700 underline hover:text-brand-800">
              {name}
              <span className="sr-only"> ({tag.code})</span>
            </Link>
            <TagStatusBadge status={tag.status} />
          </p>
          <p className="mt-1 text-sm text-muted">
            <span className="font-mono text-ink">{tag.code}</span> · {tagTypeLabels[tag.tagType]}
          </p>
          <p className="text-sm text-muted">{tag.lastScannedAt ? (
              <>
                Last scan <DateTime iso={tag.lastScannedAt} timeZone={timeZone} />
              </>
            ) : (
              "Never scanned"
            )}</p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2 sm:justify-end">
        {tag.status === "ACTIVE" ? (
          <Link href={`/dashboard/tags/${tag.id}?lost=1#lost-mode`} className={`${action} border-danger-700 text-danger-700 hover:bg-danger-50`} aria-label={`I lost it: ${name}`}>
            I lost it
          </Link>
        ) : null}
        {missing ? (
          <>
            <Link href={`/dashboard/tags/${tag.id}#lost-mode`} className="inline-flex min-h-10 items-center rounded-md bg-danger-700 px-3 text-sm font-semibold text-white hover:bg-red-800" aria-label={`Lost mode for ${name}`}>
              Lost mode
            </Link>
            <Link href={`/dashboard/tags/${tag.id}/poster`} className={quiet} aria-label={`Poster for ${name}`}>
              Poster
            </Link>
          </>
        ) : null}
        <Link href={`/dashboard/tags/${tag.id}/label`} className={quiet} aria-label={`Print label for ${name}`}>
          Print label
        </Link>
      </div>
    </li>
  );
}
