import { notFound, redirect } from "next/navigation";
import { THREAD_TOKEN_PATTERN } from "@/lib/services/messages";

type Search = Promise<Record<string, string | string[] | undefined>>;

/** The link in the finder's e-mails (`/thread?token=…`, as every e-mailed token is) opens the conversation; anything else is a 404. */
export default async function ThreadLinkPage({ searchParams }: { searchParams: Search }) {
  const { token } = await searchParams;
  if (typeof token === "string" && THREAD_TOKEN_PATTERN.test(token)) redirect(`/thread/${token}`);
  notFound();
}
