import type { Notification } from "@/db/schema";
import { NoticeEmail } from "./notice";
import type { AppPath } from "./links";

type NotificationType = Notification["type"];

/** Per type: where the e-mail's button leads and what it says. Titles and bodies come from notify(). */
const actions: Record<NotificationType, { label: string; path: AppPath }> = {
  TAG_SCANNED: { label: "See where it was scanned", path: "/dashboard/tags" },
  MESSAGE_RECEIVED: { label: "Read and reply", path: "/dashboard/notifications" },
  TAG_STATUS_CHANGED: { label: "Open your tags", path: "/dashboard/tags" },
  TAG_CLONE_DETECTED: { label: "Review the scans", path: "/dashboard/tags" },
  FINDER_LOCATION_SHARED: { label: "See the shared location", path: "/dashboard/tags" },
  EMERGENCY_ACCESSED: { label: "Review emergency access", path: "/dashboard/notifications" },
  REWARD_UPDATED: { label: "Open your rewards", path: "/dashboard/notifications" },
  TRANSFER_RECEIVED: { label: "Review the transfer", path: "/dashboard/tags/transfers" },
  ORDER_UPDATED: { label: "Open your orders", path: "/dashboard/notifications" },
  PAYMENT_FAILED: { label: "Update your payment", path: "/dashboard/notifications" },
  SUBSCRIPTION_UPDATED: { label: "Open your plan", path: "/dashboard/notifications" },
  SECURITY: { label: "Review your account security", path: "/dashboard/account/sessions" },
};

const alwaysSent = new Set<NotificationType>(["ORDER_UPDATED", "PAYMENT_FAILED", "SUBSCRIPTION_UPDATED", "SECURITY"]);

export interface NotificationEmailProps {
  type: NotificationType;
  title: string;
  body: string;
  appUrl?: string;
}

/** The e-mail for every notification type that mails: the notification's words and a button to act on it. */
export function NotificationEmail({ type, title, body, appUrl }: NotificationEmailProps) {
  return (
    <NoticeEmail
      heading={title}
      paragraphs={[body]}
      action={actions[type]}
      reason={
        alwaysSent.has(type)
          ? "Account, security and payment messages are always sent by e-mail."
          : "You receive this because of your notification settings; change them in your dashboard under Notifications → Settings."
      }
      appUrl={appUrl}
    />
  );
}

NotificationEmail.PreviewProps = { type: "TAG_SCANNED", title: "Your tag was scanned", body: "Someone scanned the tag on “Blue backpack” in Berlin." } satisfies NotificationEmailProps;

export default NotificationEmail;
