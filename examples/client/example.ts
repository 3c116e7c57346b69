/**
 * Lists your tags and prints the unread notifications count, through the typed client.
 *
 *   TAGS_URL=http://localhost:3000 TAGS_API_KEY=tsk_… npx tsx examples/client/example.ts
 *   TAGS_URL=http://localhost:3000 TAGS_EMAIL=… TAGS_PASSWORD=… npx tsx examples/client/example.ts
 */
import { createApiClient } from "./client";

async function main(): Promise<number> {
  const baseUrl = process.env.TAGS_URL ?? "http://localhost:3000";
  let accessToken: string | undefined;
  if (!process.env.TAGS_API_KEY) {
    // Signing in: the body and the answer are typed from the document.
    const { data, error } = await createApiClient({ baseUrl }).POST("/api/v1/auth/login", {
      body: { email: process.env.TAGS_EMAIL ?? "", password: process.env.TAGS_PASSWORD ?? "" },
    });
    if (error) {
      // TWO_FACTOR_REQUIRED (403): send `twoFactorCode` with the login.
      console.error(`sign-in failed: ${error.error.code} ${error.error.message}`);
      return 1;
    }
    accessToken = data.data.accessToken;
  }
  const api = createApiClient({ baseUrl, accessToken, apiKey: process.env.TAGS_API_KEY });

  const tags = await api.GET("/api/v1/tags", { params: { query: { page: 1, limit: 20 } } });
  if (tags.error) {
    console.error(`listing tags failed (${tags.response.status}): ${tags.error.error.code}`);
    return 1;
  }
  console.log(`${tags.data.meta.total} tag(s)`);
  for (const tag of tags.data.data) console.log(`- ${tag.code} ${tag.itemName ?? "(unnamed)"} ${tag.status}`);

  const unread = await api.GET("/api/v1/notifications/unread-count");
  if (unread.data) console.log(`${unread.data.data.count} unread notification(s)`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
