"use server";

import { revalidatePath } from "next/cache";
import { cursorParam } from "@/components/dashboard/pager";
import { formText } from "@/lib/forms/form-state";
import { rowAction, whenNotFound } from "@/lib/forms/action";
import { notificationEndpoints } from "@/lib/http/endpoints/notifications";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/services/notifications";

const PATH = "/dashboard/notifications";

/** Back to the page the row was on (its cursor; post/redirect/get), with what happened. */
function back(formData: FormData, notice: string, extra = ""): string {
  const cursor = cursorParam(formText(formData, "cursor"));
  return `${PATH}?notice=${notice}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}${extra}`;
}

// The header's unread count is rendered by the dashboard layout.
const refreshLayout = () => revalidatePath("/dashboard", "layout");

/** PATCH /notifications/:id/read. */
export const markReadAction: (formData: FormData) => Promise<void> = rowAction.for(
  notificationEndpoints.markRead,
  { fields: { id: "notificationId" }, returnTo: PATH, onError: whenNotFound((formData) => back(formData, "missing")), revalidate: refreshLayout },
  async ({ ctx, params, formData }) => {
    await markNotificationRead(ctx, params.id);
    return back(formData, "read");
  },
);

/** POST /notifications/read-all. */
export const markAllReadAction: (formData: FormData) => Promise<void> = rowAction.for(notificationEndpoints.readAll, { returnTo: PATH, revalidate: refreshLayout }, async ({ ctx, formData }) => {
  const { count } = await markAllNotificationsRead(ctx);
  return back(formData, "all-read", `&count=${count}`);
});
