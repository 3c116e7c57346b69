import { SubmitButton } from "@/components/forms/submit-button";
import { signOutAction } from "./actions";

/** A form, so signing out works without JavaScript and is a POST (never a link a crawler could follow). */
export function SignOutButton({ className, buttonClassName = "min-h-10 px-4 py-2 text-sm" }: { className?: string; buttonClassName?: string }) {
  return (
    <form action={signOutAction} className={className}>
      <SubmitButton variant="secondary" pendingLabel="Signing out…" className={buttonClassName}>
        Sign out
      </SubmitButton>
    </form>
  );
}
