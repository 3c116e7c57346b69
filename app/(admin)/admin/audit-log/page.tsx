import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { AdminHeading, FilterForm, FilterSelect, ResultCount } from "@/components/admin/list-filters";
import { AuditDiff } from "@/components/admin/audit-diff";
import { DateTime } from "@/components/dashboard/date-time";
import { CursorPager, cursorParam, pageOrFirst } from "@/components/dashboard/pager";
import { viewerTimeZone } from "@/lib/http/viewer-time-zone";
import { listAuditLog, type AuditEntry } from "@/lib/services/admin";
import { requireAdminContext } from "../admin-context";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const PATH = "/admin/audit-log";
const PER_PAGE = 25;

/** The actions admin writes record, with what they mean. */
const actionLabels: Record<string, string> = {
  "user.update": "User role or suspension changed",
  "report.update": "Report status changed",
  "report.action": "Report acted on",
  "order.status": "Order status changed",
  "order.refund": "Order refunded",
  "order.late_payment_refund": "Payment after cancellation: refund started",
  "product.create": "Product created",
  "product.update": "Product changed",
  "tag.batch_mint": "Tags minted",
  "payment_event.replay": "Payment event replayed",
  "blog_post.create": "Blog post created",
  "blog_post.update": "Blog post changed",
  "blog_post.delete": "Blog post deleted",
  "career_position.create": "Position created",
  "career_position.update": "Position changed",
  "career_position.delete": "Position deleted",
  "campaign.create": "Campaign sent",
};
const entityTypes = ["user", "report", "order", "product", "tag_batch", "payment_event", "blog_post", "career_position", "campaign"];

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every admin write, newest first, with who did it and what changed. Super admins only: anyone else gets the 404 page. */
export default async function AuditLogPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireAdminContext(PATH);
  if (ctx.actor.kind !== "user" || ctx.actor.role !== "SUPER_ADMIN") notFound();
  const timeZone = await viewerTimeZone();
  const params = await searchParams;
  const action = first(params.action)?.slice(0, 100);
  const entityType = first(params.entityType)?.slice(0, 100);
  const actorId = first(params.actorId);
  const validActor = actorId && UUID.test(actorId) ? actorId : undefined;
  const list = await pageOrFirst((cursor) => listAuditLog(ctx, { page: 1, limit: PER_PAGE, action, entityType, actorId: validActor, cursor }), cursorParam(params.cursor));
  const { items, total, page } = list;
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  const href = (cursor?: string) => {
    const query = new URLSearchParams({ ...(action ? { action } : {}), ...(entityType ? { entityType } : {}), ...(validActor ? { actorId: validActor } : {}), ...(cursor ? { cursor } : {}) });
    return `${PATH}${query.size ? `?${query.toString()}` : ""}`;
  };

  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <AdminHeading title="Audit log" intro="Every change an admin made, newest first: who, what, when, and the fields that changed." />

      <FilterForm action={PATH} label="Filter the audit log">
        <FilterSelect id="filter-action" label="Action" name="action" defaultValue={action ?? ""} options={[{ value: "", label: "All actions" }, ...Object.entries(actionLabels).map(([value, label]) => ({ value, label }))]} />
        <FilterSelect id="filter-entity" label="Record" name="entityType" defaultValue={entityType ?? ""} options={[{ value: "", label: "All records" }, ...entityTypes.map((value) => ({ value, label: value.replace("_", " ") }))]} />
        {validActor ? <input type="hidden" name="actorId" value={validActor} /> : null}
      </FilterForm>
      {validActor ? (
        <p className="text-sm text-muted">
          Only the entries of one admin.{" "}
          <Link href={href().replace(/([?&])actorId=[^&]*&?/, "$1").replace(/[?&]$/, "")} className="font-semibold text-brand-700 underline hover:text-brand-800">
            Show everyone’s
          </Link>
        </p>
      ) : null}

      <ResultCount total={total} page={page} totalPages={totalPages} estimate={list.totalIsEstimate} noun={["entry", "entries"]} />

      {items.length ? (
        <ol aria-label="Audit entries" className="flex flex-col gap-4">
          {items.map((entry) => (
            <EntryCard key={entry.id} entry={entry} timeZone={timeZone} />
          ))}
        </ol>
      ) : null}

      <CursorPager page={page} totalPages={totalPages} totalIsEstimate={list.totalIsEstimate} nextCursor={list.nextCursor} href={href} label="Audit log pages" firstLabel="Newest entries" nextLabel="Older entries" className="" />
    </div>
  );
}

function EntryCard({ entry, timeZone }: { entry: AuditEntry; timeZone: string }) {
  const headingId = `entry-${entry.id}`;
  return (
    <li aria-labelledby={headingId} data-audit-action={entry.action} className="flex flex-col gap-3 rounded-xl border border-line bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="font-semibold text-ink">
          {actionLabels[entry.action] ?? entry.action}
        </h2>
        <span className="text-sm text-muted">
          <DateTime iso={entry.createdAt} timeZone={timeZone} />
        </span>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold text-ink">By</dt>
        <dd className="break-all text-muted">
          {entry.actorId ? (
            <Link href={`${PATH}?actorId=${entry.actorId}`} className="text-brand-700 underline hover:text-brand-800">
              {entry.actorEmail ?? entry.actorId}
            </Link>
          ) : (
            (entry.actorEmail ?? "A deleted account")
          )}
        </dd>
        <dt className="font-semibold text-ink">Record</dt>
        <dd className="break-all text-muted">
          {entry.entityType.replace("_", " ")}
          {entry.entityId ? ` ${entry.entityId}` : ""}
        </dd>
        <dt className="font-semibold text-ink">Action</dt>
        <dd className="text-muted">
          <code>{entry.action}</code>
        </dd>
      </dl>
      <AuditDiff before={entry.before} after={entry.after} />
    </li>
  );
}
