import { Heading, Link, Section, Text } from "@react-email/components";
import { Markdown } from "@/components/content/markdown";
import { EmailLayout } from "./components/email-layout";
import { emailColors } from "./brand";

export interface CampaignEmailProps {
  subject: string;
  /** The campaign's Markdown, rendered by the one sanitising renderer. */
  content: string;
  /** The recipient's own one-click unsubscribe page. */
  unsubscribeUrl: string;
  appUrl?: string;
}

/** A newsletter campaign: its subject as the heading, its Markdown, and a visible unsubscribe link. */
export function CampaignEmail({ subject, content, unsubscribeUrl, appUrl }: CampaignEmailProps) {
  return (
    <EmailLayout preview={subject} reason="You receive this because you subscribed to our newsletter and confirmed your address." appUrl={appUrl}>
      <Heading as="h1" style={{ color: emailColors.text, fontSize: "22px", lineHeight: "28px", margin: "0 0 16px" }}>
        {subject}
      </Heading>
      <Section style={{ color: emailColors.text, fontSize: "16px", lineHeight: "24px" }}>
        <Markdown source={content} />
      </Section>
      <Text style={{ color: emailColors.muted, fontSize: "14px", lineHeight: "20px", margin: "24px 0 0" }}>
        No longer interested?{" "}
        <Link href={unsubscribeUrl} style={{ color: emailColors.accent, textDecoration: "underline" }}>
          Unsubscribe from the newsletter
        </Link>{" "}
        ({unsubscribeUrl})
      </Text>
    </EmailLayout>
  );
}

CampaignEmail.PreviewProps = {
  subject: "What's new this spring",
  content: "## New tag colours\n\nOur tags now come in **five colours**. [See the shop](https://example.com/shop).",
  unsubscribeUrl: "http://localhost:3000/newsletter/unsubscribe?token=example",
} satisfies CampaignEmailProps;

export default CampaignEmail;
