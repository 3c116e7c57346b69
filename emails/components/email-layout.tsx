import type { ReactNode } from "react";
import { Body, Container, Head, Hr, Html, Link, Preview, Section, Text } from "@react-email/components";
import { SERVICE_NAME, defaultAppUrl, emailColors, emailFontFamily } from "../brand";
import { buildActionUrl, type AppPath } from "../links";

export interface EmailLayoutProps {
  /** The inbox preview line (hidden in the body). */
  preview: string;
  children: ReactNode;
  /** Why the recipient gets this message, shown in the footer. */
  reason?: string;
  /** A footer link to where the recipient changes what they get (e.g. notification settings). */
  manageLink?: { label: string; path: AppPath };
  appUrl?: string;
  /** The language the e-mail is written in (BCP 47); English by default. */
  lang?: string;
}

/**
 * The one layout every e-mail uses: a text wordmark header (no image, so nothing depends on remote
 * image loading or alt text), a white content card, and a footer naming the service and its URL.
 */
export function EmailLayout({ preview, children, reason, manageLink, appUrl = defaultAppUrl(), lang = "en" }: EmailLayoutProps) {
  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: emailColors.background, color: emailColors.text, fontFamily: emailFontFamily, margin: 0, padding: "24px 0" }}>
        <Container style={{ maxWidth: "560px", margin: "0 auto", padding: "0 12px" }}>
          {/* Skipped in the plain-text part, whose footer already names the service and its URL. */}
          <Section data-skip-in-text="true" style={{ padding: "8px 0 16px" }}>
            <Link href={appUrl} style={{ color: emailColors.text, fontSize: "20px", fontWeight: 700, textDecoration: "none" }}>
              {SERVICE_NAME}
            </Link>
          </Section>
          <Section
            style={{ backgroundColor: emailColors.surface, border: `1px solid ${emailColors.border}`, borderRadius: "8px", padding: "24px" }}
          >
            {children}
          </Section>
          <Section style={{ padding: "16px 0" }}>
            <Hr style={{ borderColor: emailColors.border, margin: "0 0 12px" }} />
            {reason ? <Text style={{ color: emailColors.muted, fontSize: "13px", lineHeight: "18px", margin: "0 0 8px" }}>{reason}</Text> : null}
            {manageLink ? (
              <Text style={{ color: emailColors.muted, fontSize: "13px", lineHeight: "18px", margin: "0 0 8px" }}>
                <Link href={buildActionUrl(manageLink.path, { appUrl })} style={{ color: emailColors.muted, textDecoration: "underline" }}>
                  {manageLink.label}
                </Link>
              </Text>
            ) : null}
            <Text style={{ color: emailColors.muted, fontSize: "13px", lineHeight: "18px", margin: 0 }}>
              {SERVICE_NAME} ·{" "}
              <Link href={appUrl} style={{ color: emailColors.muted, textDecoration: "underline" }}>
                {appUrl}
              </Link>
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
