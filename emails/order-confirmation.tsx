import { Heading, Section, Text } from "@react-email/components";
import { ActionLink } from "./components/action-link";
import { EmailLayout } from "./components/email-layout";
import { emailColors } from "./brand";

export interface OrderEmailLine {
  name: string;
  quantity: number;
  /** Formatted line total, e.g. "$29.98". */
  amount: string;
}

export interface OrderConfirmationEmailProps {
  firstName: string;
  /** Short order reference, e.g. "5B8C8F0E". */
  reference: string;
  orderId: string;
  lines: OrderEmailLine[];
  /** Formatted total, e.g. "$29.98". */
  total: string;
  /** Tags added to the account by this order (ready to set up). */
  tagCount: number;
  appUrl?: string;
}

const text = { color: emailColors.text, fontSize: "16px", lineHeight: "24px", margin: "0 0 12px" } as const;
const line = { color: emailColors.text, fontSize: "15px", lineHeight: "22px", margin: "0 0 4px" } as const;

/** Sent once an order's payment is confirmed (checkout.session.completed). */
export function OrderConfirmationEmail({ firstName, reference, orderId, lines, total, tagCount, appUrl }: OrderConfirmationEmailProps) {
  return (
    <EmailLayout preview={`Order ${reference} is confirmed: ${total}`} reason="You receive this e-mail because you placed an order with Tag Service." appUrl={appUrl}>
      <Heading as="h1" style={{ color: emailColors.text, fontSize: "22px", lineHeight: "28px", margin: "0 0 16px" }}>
        Thank you, your order is confirmed
      </Heading>
      <Text style={text}>
        Hi {firstName}, we received your payment for order {reference}. We will e-mail you the tracking number as soon as it ships.
      </Text>
      <Section style={{ borderTop: `1px solid ${emailColors.border}`, borderBottom: `1px solid ${emailColors.border}`, padding: "12px 0", margin: "0 0 12px" }}>
        {lines.map((item, index) => (
          <Text key={index} style={line}>
            {item.quantity} × {item.name} — {item.amount}
          </Text>
        ))}
        <Text style={{ ...line, fontWeight: 700, margin: "8px 0 0" }}>Total paid: {total}</Text>
      </Section>
      {tagCount > 0 ? (
        <Text style={text}>
          {tagCount === 1 ? "1 tag was" : `${tagCount} tags were`} added to your account. You can set {tagCount === 1 ? "it" : "them"} up now, before the printed tags arrive.
        </Text>
      ) : null}
      <ActionLink label="View your order" path={`/dashboard/orders/${orderId}`} appUrl={appUrl} />
    </EmailLayout>
  );
}

OrderConfirmationEmail.PreviewProps = {
  firstName: "Ada",
  reference: "5B8C8F0E",
  orderId: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11",
  lines: [{ name: "Pet collar tag (Blue)", quantity: 2, amount: "$29.98" }],
  total: "$29.98",
  tagCount: 2,
} satisfies OrderConfirmationEmailProps;

export default OrderConfirmationEmail;
