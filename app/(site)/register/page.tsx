import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard, textLinkClass } from "@/components/forms/auth-card";
import { currentUserContext } from "@/lib/http/page-context";
import { firstParam, safeNextPath } from "../login/safe-next";
import { RegisterForm } from "./register-form";

export const metadata: Metadata = { title: "Create an account" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function RegisterPage({ searchParams }: { searchParams: SearchParams }) {
  const next = safeNextPath(firstParam((await searchParams).next));
  if (await currentUserContext()) redirect(next ?? "/dashboard");
  const loginHref = next ? `/login?next=${encodeURIComponent(next)}` : "/login";

  return (
    <AuthCard
      title="Create an account"
      description="Free for up to 5 tags. Activate your tags, describe what they are on, and get messages when someone finds them."
      footer={
        <p>
          Already have an account?{" "}
          <Link href={loginHref} className={textLinkClass}>
            Sign in
          </Link>
        </p>
      }
    >
      <RegisterForm next={next ?? ""} />
    </AuthCard>
  );
}
