import { redirect } from "next/navigation";
import { notificationEndpoints } from "@/lib/http/endpoints/notifications";
import { requireUserContext } from "@/lib/http/page-context";
import { pageParams } from "@/lib/http/page-input";
import { NotFoundError } from "@/lib/services/errors";
import { notificationOpenPath, openNotification } from "@/lib/services/notifications";

const MISSING = "/dashboard/notifications?notice=missing";

/**
 * /dashboard/notifications/:id/open — where a notification's links point (list, push click, e-mail):
 * marks it read and redirects to what it is about. Signed-out visitors sign in first and come back.
 * A page rather than a route handler so that the sign-in form's redirect (a client-side navigation)
 * can land here too. It changes nothing but the caller's own read marker; the lists link it with a
 * plain <a>, so nothing prefetches it.
 */
export default async function OpenNotificationPage({ params }: { params: Promise<{ id: string }> }): Promise<never> {
  const ctx = await requireUserContext(notificationOpenPath((await params).id));
  const { id } = await pageParams(notificationEndpoints.markRead, params, { otherwise: () => redirect(MISSING) });
  let path: string;
  try {
    ({ path } = await openNotification(ctx, id));
  } catch (error) {
    if (error instanceof NotFoundError) redirect(MISSING);
    throw error;
  }
  redirect(path);
}
