import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard, textLinkClass } from "@/components/forms/auth-card";
import { currentUserContext } from "@/lib/http/page-context";
import { LoginForm } from "./login-form";
import { firstParam, safeNextPath } from "./safe-next";

export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Messages for pages that send people here after something happened (`?notice=`). */
const notices: Record<string, string> = {
  "signed-out": "You are signed out.",
  "password-reset": "Your password has been reset and every device was signed out. Sign in with your new password.",
  "account-deleted": "Your account and all its data have been deleted.",
};

/** next-auth's own error redirect (a direct POST to its callback), as `?error=…&code=…`. */
const authErrors: Record<string, string> = {
  credentials: "The e-mail address or password is incorrect.",
  two_factor_required: "This account uses two-factor authentication: sign in with the form below.",
  two_factor_invalid: "That code is invalid or was already used.",
  rate_limited: "Too many failed attempts for this account. Try again later.",
  suspended: "This account is suspended.",
};

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNextPath(firstParam(params.next));
  if (await currentUserContext()) redirect(next ?? "/dashboard");

  const notice = notices[firstParam(params.notice) ?? ""];
  const errorCode = firstParam(params.error) ? (firstParam(params.code) ?? "credentials") : undefined;
  const authError = errorCode ? (authErrors[errorCode] ?? "Signing in failed. Please try again.") : undefined;
  const registerHref = next ? `/register?next=${encodeURIComponent(next)}` : "/register";

  return (
    <AuthCard
      title="Sign in"
      description={next ? "Sign in to continue to the page you asked for." : "Welcome back. Sign in to manage your tags and messages."}
      footer={
        <p>
          New to Tag Service?{" "}
          <Link href={registerHref} className={textLinkClass}>
            Create an account
          </Link>
        </p>
      }
    >
      <LoginForm next={next ?? ""} notice={authError ? { tone: "error", text: authError } : notice ? { tone: "success", text: notice } : undefined} />
    </AuthCard>
  );
}
