import { NoticeEmail } from "./notice";

export interface ResetPasswordProps {
  firstName: string;
  token: string;
  appUrl?: string;
}

/** Sent by POST /auth/forgot-password for an address that has an account; the link lives one hour. */
export function ResetPassword({ firstName, token, appUrl }: ResetPasswordProps) {
  return (
    <NoticeEmail
      heading="Reset your password"
      paragraphs={[
        `Hi ${firstName}, someone asked to reset the password of your Tag Service account.`,
        "Choose a new password with the link below. It works once and expires in one hour. Setting a new password signs you out everywhere.",
      ]}
      action={{ label: "Choose a new password", path: "/reset-password", token }}
      reason="You receive this because a password reset was requested for this address. If that wasn't you, ignore this e-mail: your password stays as it is."
      appUrl={appUrl}
    />
  );
}

ResetPassword.PreviewProps = { firstName: "Ada", token: "example-token" } satisfies ResetPasswordProps;

export default ResetPassword;
