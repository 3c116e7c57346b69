import { Heading, Text } from "@react-email/components";
import { ActionLink } from "./components/action-link";
import { EmailLayout } from "./components/email-layout";
import { emailColors } from "./brand";

export interface OrderShippedEmailProps {
  firstName: string;
  reference: string;
  orderId: string;
  trackingNumber: string;
  carrier?: string | null;
  appUrl?: string;
}

const text = { color: emailColors.text, fontSize: "16px", lineHeight: "24px", margin: "0 0 12px" } as const;

/** Sent when an admin marks an order SHIPPED with its tracking number. */
export function OrderShippedEmail({ firstName, reference, orderId, trackingNumber, carrier, appUrl }: OrderShippedEmailProps) {
  return (
    <EmailLayout preview={`Order ${reference} is on its way: tracking ${trackingNumber}`} reason="You receive this e-mail because you placed an order with Tag Service." appUrl={appUrl}>
      <Heading as="h1" style={{ color: emailColors.text, fontSize: "22px", lineHeight: "28px", margin: "0 0 16px" }}>
        Your order is on its way
      </Heading>
      <Text style={text}>Hi {firstName}, order {reference} has shipped.</Text>
      <Text style={{ ...text, fontWeight: 700 }}>
        Tracking number: {trackingNumber}
        {carrier ? ` (${carrier})` : ""}
      </Text>
      <Text style={text}>Once your tags arrive, stick them on and finish setting them up in your dashboard.</Text>
      <ActionLink label="View your order" path={`/dashboard/orders/${orderId}`} appUrl={appUrl} />
    </EmailLayout>
  );
}

OrderShippedEmail.PreviewProps = {
  firstName: "Ada",
  reference: "5B8C8F0E",
  orderId: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11",
  trackingNumber: "1Z999AA10123456784",
  carrier: "UPS",
} satisfies OrderShippedEmailProps;

export default OrderShippedEmail;
