import type { ReactNode } from "react";
import Link from "next/link";
import { AdminHeading, ResultCount } from "@/components/admin/list-filters";
import { noticeFrom } from "@/components/dashboard/notices";
import { Pager } from "@/components/dashboard/pager";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { FormAlert } from "@/components/forms/form-alert";

/** Entries per page of an admin content list. */
export const CONTENT_PER_PAGE = 20;

export interface ContentListEntry {
  id: string;
  title: string;
  /** Public (published, open) or not, with the badge's status and label for each. */
  visible: boolean;
  badge: { status: string; label: string };
  /** The lines under the title. */
  details: ReactNode;
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * An admin list of content entries (blog posts, career positions), public ones and the rest, most recently
 * changed first: the heading with its "New" link, the notice a delete left, the count, one row per entry
 * linking to its editor at `path/<id>`, and the pages.
 */
export function AdminContentList({
  path,
  noun,
  title,
  intro,
  params,
  page,
  total,
  entries,
}: {
  path: string;
  /** "post", "posts". */
  noun: [string, string];
  title: string;
  intro: string;
  params: Record<string, string | string[] | undefined>;
  page: number;
  total: number;
  entries: ContentListEntry[];
}) {
  const totalPages = Math.max(1, Math.ceil(total / CONTENT_PER_PAGE));
  const notice = noticeFrom(params, {
    deleted: { tone: "success", text: `The ${noun[0]} was deleted.` },
    missing: { tone: "error", text: `That ${noun[0]} no longer exists.` },
  });
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <AdminHeading title={title} intro={intro} />
        <Link href={`${path}/new`} className="btn-primary">
          New {noun[0]}
        </Link>
      </div>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
      <ResultCount total={total} page={page} totalPages={totalPages} noun={noun} />
      {entries.length ? (
        <ul aria-label={capitalised(noun[1])} className="flex flex-col gap-3">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-2 rounded-xl border border-line bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
              <div className="flex min-w-0 flex-col gap-1">
                <div className="flex flex-wrap items-center gap-2">
                  <Link href={`${path}/${entry.id}`} className="text-lg font-semibold break-words text-brand-700 underline-offset-4 hover:text-brand-800 hover:underline">
                    {entry.title}
                  </Link>
                  <StatusBadge
                    status={entry.badge.status}
                    label={entry.badge.label}
                    tone={entry.visible ? "border-green-700 bg-green-50 text-green-900" : "border-slate-500 bg-slate-100 text-slate-800"}
                    kind="State"
                  />
                </div>
                {entry.details}
              </div>
              <Link href={`${path}/${entry.id}`} className="btn-secondary shrink-0">
                Edit<span className="sr-only"> {entry.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <Pager page={page} totalPages={totalPages} href={(n) => `${path}?page=${n}`} label={`${capitalised(noun[0])} pages`} className="" />
    </div>
  );
}
