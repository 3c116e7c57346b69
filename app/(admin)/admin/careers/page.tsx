import type { Metadata } from "next";
import { AdminContentList, CONTENT_PER_PAGE } from "@/components/admin/content-list";
import { positionTypeLabels } from "@/components/careers/labels";
import { pageParam } from "@/components/dashboard/pager";
import { listAllPositions } from "@/lib/services/content";
import { requireAdminContext } from "../admin-context";

export const metadata: Metadata = { title: "Positions" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const CAREERS_PATH = "/admin/careers";

/** Every position, open and closed, most recently changed first, each linking to its editor. */
export default async function AdminCareersPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(CAREERS_PATH);
  const params = await searchParams;
  const page = pageParam(params.page);
  const { items, total } = await listAllPositions(ctx, { page, limit: CONTENT_PER_PAGE });

  return (
    <AdminContentList
      path={CAREERS_PATH}
      noun={["position", "positions"]}
      title="Positions"
      intro="Open positions are on the careers page; closed ones are kept here only."
      params={params}
      page={page}
      total={total}
      entries={items.map((position) => ({
        id: position.id,
        title: position.title,
        visible: position.open,
        badge: position.open ? { status: "OPEN", label: "Open" } : { status: "CLOSED", label: "Closed" },
        details: (
          <p className="text-sm text-muted">
            {position.department} · {position.location} · {positionTypeLabels[position.type]}
          </p>
        ),
      }))}
    />
  );
}
