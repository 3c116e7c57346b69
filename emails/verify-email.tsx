import { NoticeEmail } from "./notice";

export interface VerifyEmailProps {
  firstName: string;
  token: string;
  appUrl?: string;
}

/** Sent on registration and by POST /auth/send-verification; the link lives 24 hours. */
export function VerifyEmail({ firstName, token, appUrl }: VerifyEmailProps) {
  return (
    <NoticeEmail
      heading="Confirm your e-mail address"
      paragraphs={[`Hi ${firstName}, welcome to Tag Service.`, "Confirm this address so finders' messages and important account notices reach you. The link works once and expires in 24 hours."]}
      action={{ label: "Confirm e-mail", path: "/verify-email", token }}
      reason="You receive this because an account was created or a confirmation was requested with this address. If that wasn't you, ignore this e-mail."
      appUrl={appUrl}
    />
  );
}

VerifyEmail.PreviewProps = { firstName: "Ada", token: "example-token" } satisfies VerifyEmailProps;

export default VerifyEmail;
