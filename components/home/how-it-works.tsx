import { ChatIcon, GiftIcon, ScanIcon, TagIcon } from "@/components/icons";

const steps = [
  {
    icon: TagIcon,
    title: "Attach a tag",
    text: "Stick, clip or hang a tag on the thing you care about. Activate it from your dashboard and describe the item: a name, a photo, a note for whoever finds it.",
  },
  {
    icon: ScanIcon,
    title: "A finder scans it",
    text: "Any phone camera reads the QR code, and most phones read the NFC chip with a tap. No app and no account: the finder lands on the item's page straight away.",
  },
  {
    icon: ChatIcon,
    title: "They message you anonymously",
    text: "The finder writes to you from that page. You are notified at once and reply from your dashboard; neither of you sees the other's e-mail address.",
  },
  {
    icon: GiftIcon,
    title: "It comes home, with a thank-you",
    text: "Offer a reward when you mark an item lost and the finder sees it on the page. When you get the item back, pay the reward and the finder receives a certificate.",
  },
] as const;

/** The four steps from attaching a tag to getting the item back (the `#how-it-works` anchor). */
export function HowItWorks() {
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="scroll-mt-4 py-14 sm:py-20">
      <div className="container-page">
        <h2 id="how-heading" className="text-3xl font-bold tracking-tight text-ink">
          How it works
        </h2>
        <p className="mt-3 max-w-2xl text-muted">Four steps between “I lost it” and “I’ve got it back”.</p>
        <ol className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {steps.map((step, index) => (
            <li key={step.title} className="rounded-xl border border-line bg-white p-6 shadow-sm">
              <div className="flex items-center gap-3">
                <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-white">
                  <step.icon className="h-5 w-5" />
                </span>
                <span className="text-sm font-semibold text-brand-700">Step {index + 1}</span>
              </div>
              <h3 className="mt-4 text-lg font-semibold text-ink">{step.title}</h3>
              <p className="mt-2 text-muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
