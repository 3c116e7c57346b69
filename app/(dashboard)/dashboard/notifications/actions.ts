"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { formText } from "@/components/forms/form-state";
import { requireUserContext } from "@/lib/auth/page-context";
import { NotFoundError } from "@/lib/services/errors";
import { markAllNotificationsRead, markNotificationRead } from "@/lib/services/notifications/store";

const PATH = "/dashboard/notifications";

/** Back to the page the row was on (post/redirect/get), with what happened. */
function back(formData: FormData, notice: string, extra = ""): never {
  const page = Number(formText(formData, "page"));
  const pageParam = Number.isInteger(page) && page > 1 ? `&page=${page}` : "";
  // The header's unread count is rendered by the dashboard layout.
  revalidatePath("/dashboard", "layout");
  redirect(`${PATH}?notice=${notice}${pageParam}${extra}`);
}

/** PATCH /notifications/:id/read. */
export async function markReadAction(formData: FormData): Promise<void> {
  const ctx = await requireUserContext(PATH);
  const id = z.uuid().safeParse(formText(formData, "notificationId"));
  let notice = "read";
  try {
    if (!id.success) throw new NotFoundError();
    await markNotificationRead(ctx, id.data);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    notice = "missing";
  }
  back(formData, notice);
}

/** POST /notifications/read-all. */
export async function markAllReadAction(formData: FormData): Promise<void> {
  const ctx = await requireUserContext(PATH);
  const { count } = await markAllNotificationsRead(ctx);
  back(formData, "all-read", `&count=${count}`);
}
