import { z } from "zod";
import { cursorParam } from "@/components/dashboard/pager";
import { formText } from "@/lib/forms/form-state";
import { pageQuery } from "@/lib/http/page-input";
import { queueReportTypeSchema, reportStatusSchema } from "@/lib/services/reports";

export const QUEUE_PATH = "/admin/reports";

/** The queue's filters as the page reads them from its query string (status OPEN unless told). */
export interface QueueView {
  status: string;
  type?: string;
  /** The page's cursor; none on the first page. */
  cursor?: string;
}

/** `status` is a report status or ALL; anything else falls back to the default view. */
export function queueView(read: (name: string) => string | undefined): QueueView {
  const { status, type } = pageQuery({ status: reportStatusSchema.or(z.literal("ALL")), type: queueReportTypeSchema }, read);
  return {
    status: status ?? "OPEN",
    type,
    cursor: cursorParam(read("cursor")),
  };
}

export function queueHref(view: QueueView, extra: Record<string, string> = {}, hash = ""): string {
  const query = new URLSearchParams({ status: view.status, ...(view.type ? { type: view.type } : {}), ...(view.cursor ? { cursor: view.cursor } : {}), ...extra });
  return `${QUEUE_PATH}?${query.toString()}${hash}`;
}

/** Where a queue form's answer goes: the view it was sent from (hidden fields), with a notice. */
export function backToQueue(formData: FormData, notice: string): string {
  const view = queueView((name) => formText(formData, `view-${name}`) || undefined);
  const reportId = formText(formData, "reportId");
  return queueHref(view, { notice }, /^[0-9a-f-]{36}$/i.test(reportId) ? `#report-${reportId.toLowerCase()}` : "");
}
