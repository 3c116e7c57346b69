import type { Notification } from "@/db/schema";
import { NoticeEmail } from "./notice";
import { notificationAction, notificationOpenPath, type NotificationAction } from "@/lib/services/notifications/actions";

type NotificationType = Notification["type"];

function emailAction(type: NotificationType, data: Record<string, unknown> | undefined, notificationId: string | undefined): NotificationAction {
  const action = notificationAction(type, data);
  return notificationId ? { label: action.label, path: notificationOpenPath(notificationId) } : action;
}

const alwaysSent = new Set<NotificationType>(["ORDER_UPDATED", "PAYMENT_FAILED", "SUBSCRIPTION_UPDATED", "SECURITY"]);

export interface NotificationEmailProps {
  type: NotificationType;
  title: string;
  body: string;
  /** The notification's data: a tag or transfer it names decides where the button leads. */
  data?: Record<string, unknown>;
  /** When given, the button opens the notification (marking it read) on its way to the action. */
  notificationId?: string;
  appUrl?: string;
}

/** The e-mail for every notification type that mails: the notification's words and a button to act on it. */
export function NotificationEmail({ type, title, body, data, notificationId, appUrl }: NotificationEmailProps) {
  return (
    <NoticeEmail
      heading={title}
      paragraphs={[body]}
      action={emailAction(type, data, notificationId)}
      reason={
        alwaysSent.has(type)
          ? "Account, security and payment messages are always sent by e-mail."
          : "You receive this because of your notification settings."
      }
      manageLink={{ label: "Change which notifications you get by e-mail", path: "/dashboard/notifications/preferences" }}
      appUrl={appUrl}
    />
  );
}

NotificationEmail.PreviewProps = { type: "TAG_SCANNED", title: "Your tag was scanned", body: "Someone scanned the tag on “Blue backpack” in Berlin." } satisfies NotificationEmailProps;

export default NotificationEmail;
