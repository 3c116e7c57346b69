import type { Notification } from "@/db/schema";
import { NoticeEmail } from "./notice";
import { notificationAction, notificationImagePath, notificationOpenPath, type NotificationAction } from "@/lib/services/notifications/actions";

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

/** The picture a notification's data names (a lost pet's photo: `photoUrl`, a path of the app), if any. */
export function notificationImage(data: Record<string, unknown> | undefined): { path: `/${string}`; alt: string } | undefined {
  const path = notificationImagePath(data);
  if (!path) return undefined;
  return { path, alt: typeof data?.petName === "string" ? `Photo of ${data.petName}` : "Photo of the pet" };
}

/** The e-mail for every notification type that mails: the notification's words, its picture if any, and a button to act on it. */
export function NotificationEmail({ type, title, body, data, notificationId, appUrl }: NotificationEmailProps) {
  return (
    <NoticeEmail
      heading={title}
      paragraphs={[body]}
      image={notificationImage(data)}
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
