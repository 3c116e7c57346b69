import { Heading, Img, Text } from "@react-email/components";
import { buildActionUrl, type AppPath } from "./links";
import { ActionLink, type ActionLinkProps } from "./components/action-link";
import { EmailLayout, type EmailLayoutProps } from "./components/email-layout";
import { emailColors } from "./brand";

export interface NoticeEmailProps {
  heading: string;
  paragraphs: string[];
  /** Optional call to action; a `token` is carried as `?token=`. */
  action?: Omit<ActionLinkProps, "appUrl">;
  /** Inbox preview line; defaults to the first paragraph. */
  preview?: string;
  /** Footer line saying why the recipient gets this e-mail. */
  reason?: string;
  manageLink?: EmailLayoutProps["manageLink"];
  /** A picture under the heading (a lost pet's photo), served by the app at this path. */
  image?: { path: AppPath; alt: string };
  appUrl?: string;
}

/**
 * A generic message: heading, paragraphs, optional action link. Specific e-mails (verification,
 * password reset, order confirmation) copy this shape with their own wording and props.
 */
export function NoticeEmail({ heading, paragraphs, action, preview, reason, manageLink, image, appUrl }: NoticeEmailProps) {
  return (
    <EmailLayout preview={preview ?? paragraphs[0] ?? heading} reason={reason} manageLink={manageLink} appUrl={appUrl}>
      <Heading as="h1" style={{ color: emailColors.text, fontSize: "22px", lineHeight: "28px", margin: "0 0 16px" }}>
        {heading}
      </Heading>
      {image ? (
        <Img src={buildActionUrl(image.path, { appUrl })} alt={image.alt} width="280" style={{ display: "block", maxWidth: "100%", height: "auto", borderRadius: "8px", margin: "0 0 16px" }} />
      ) : null}
      {paragraphs.map((paragraph, index) => (
        <Text key={index} style={{ color: emailColors.text, fontSize: "16px", lineHeight: "24px", margin: "0 0 12px" }}>
          {paragraph}
        </Text>
      ))}
      {action ? <ActionLink {...action} appUrl={appUrl} /> : null}
    </EmailLayout>
  );
}

NoticeEmail.PreviewProps = {
  heading: "Something happened",
  paragraphs: ["This is a notice from the service.", "Open the link below to see the details."],
  action: { label: "Open the dashboard", path: "/dashboard" },
} satisfies NoticeEmailProps;

export default NoticeEmail;
