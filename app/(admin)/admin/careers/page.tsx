import type { Metadata } from "next";
import Link from "next/link";
import { positionTypeLabels } from "@/components/careers/labels";
import { AdminHeading, ResultCount } from "@/components/admin/list-filters";
import { noticeFrom } from "@/components/dashboard/notices";
import { Pager, pageParam } from "@/components/dashboard/pager";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { FormAlert } from "@/components/forms/form-alert";
import { listAllPositions, type AdminPosition } from "@/lib/services/content";
import { requireAdminContext } from "../admin-context";

export const metadata: Metadata = { title: "Positions" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 20;
const CAREERS_PATH = "/admin/careers";

/** Every position, open and closed, most recently changed first, each linking to its editor. */
export default async function AdminCareersPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(CAREERS_PATH);
  const params = await searchParams;
  const page = pageParam(params.page);
  const { items, total } = await listAllPositions(ctx, { page, limit: PER_PAGE });
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const notice = noticeFrom(params, {
    deleted: { tone: "success", text: "The position was deleted." },
    missing: { tone: "error", text: "That position no longer exists." },
  });

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <AdminHeading title="Positions" intro="Open positions are on the careers page; closed ones are kept here only." />
        <Link href={`${CAREERS_PATH}/new`} className="btn-primary">
          New position
        </Link>
      </div>
      {notice ? <FormAlert tone={notice.tone} title={notice.text} /> : null}
      <ResultCount total={total} page={page} totalPages={totalPages} noun={["position", "positions"]} />
      {items.length ? (
        <ul aria-label="Positions" className="flex flex-col gap-3">
          {items.map((position) => (
            <PositionRow key={position.id} position={position} />
          ))}
        </ul>
      ) : null}
      <Pager page={page} totalPages={totalPages} href={(n) => `${CAREERS_PATH}?page=${n}`} label="Position pages" className="" />
    </div>
  );
}

function PositionRow({ position }: { position: AdminPosition }) {
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-line bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <Link href={`${CAREERS_PATH}/${position.id}`} className="text-lg font-semibold break-words text-brand-700 underline-offset-4 hover:text-brand-800 hover:underline">
            {position.title}
          </Link>
          <StatusBadge
            status={position.open ? "OPEN" : "CLOSED"}
            label={position.open ? "Open" : "Closed"}
            tone={position.open ? "border-green-700 bg-green-50 text-green-900" : "border-slate-500 bg-slate-100 text-slate-800"}
            kind="State"
          />
        </div>
        <p className="text-sm text-muted">
          {position.department} · {position.location} · {positionTypeLabels[position.type]}
        </p>
      </div>
      <Link href={`${CAREERS_PATH}/${position.id}`} className="btn-secondary shrink-0">
        Edit<span className="sr-only"> {position.title}</span>
      </Link>
    </li>
  );
}
