import { Button, Link, Section, Text } from "@react-email/components";
import { buildActionUrl, type AppPath } from "../links";
import { emailColors } from "../brand";

export interface ActionLinkProps {
  /** What the button says: a verb phrase ("Verify your e-mail"). */
  label: string;
  path: AppPath;
  /** Put into the link as `?token=<token>`. */
  token?: string;
  params?: Record<string, string>;
  appUrl?: string;
  /** The words before the written-out link, for e-mails in another language. */
  copyHint?: string;
}

/**
 * A button plus the same link written out in full. In the plain-text part the button becomes
 * "label https://…?token=…" and the written-out copy is skipped, so the URL appears once there and
 * is still visible in the HTML for clients that do not render buttons.
 */
export function ActionLink({ label, path, token, params, appUrl, copyHint = "If the button does not work, copy this link into your browser:" }: ActionLinkProps) {
  const href = buildActionUrl(path, { token, params, appUrl });
  return (
    <Section style={{ margin: "24px 0" }}>
      <Button
        href={href}
        style={{
          backgroundColor: emailColors.accent,
          color: emailColors.onAccent,
          borderRadius: "6px",
          fontSize: "16px",
          fontWeight: 600,
          padding: "12px 20px",
        }}
      >
        {label}
      </Button>
      <Text data-skip-in-text="true" style={{ color: emailColors.muted, fontSize: "14px", lineHeight: "20px", margin: "16px 0 0" }}>
        {copyHint}{" "}
        <Link href={href} style={{ color: emailColors.accent, textDecoration: "underline", wordBreak: "break-all" }}>
          {href}
        </Link>
      </Text>
    </Section>
  );
}
