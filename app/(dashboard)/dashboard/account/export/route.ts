import { redirect } from "next/navigation";
import { currentUserContext } from "@/lib/http/page-context";
import { exportMe } from "@/lib/services/account";

/**
 * The account page's "Download my data": GET /auth/me/export for the cookie session, sent as a file.
 * Never cached; a signed-out visitor is sent to sign in and back to the data page.
 */
export async function GET(): Promise<Response> {
  const ctx = await currentUserContext();
  if (!ctx) redirect(`/login?next=${encodeURIComponent("/dashboard/account/data")}`);
  const data = await exportMe(ctx);
  const day = data.exportedAt.slice(0, 10);
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="tag-service-export-${day}.json"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
