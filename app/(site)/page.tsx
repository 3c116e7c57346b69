import { CallToAction } from "@/components/home/call-to-action";
import { Developers } from "@/components/home/developers";
import { EmergencyInfo } from "@/components/home/emergency-info";
import { Hero } from "@/components/home/hero";
import { HowItWorks } from "@/components/home/how-it-works";
import { ItemKinds } from "@/components/home/item-kinds";
import { Privacy } from "@/components/home/privacy";

export default function HomePage() {
  return (
    <>
      <Hero />
      <HowItWorks />
      <ItemKinds />
      <EmergencyInfo />
      <Privacy />
      <Developers />
      <CallToAction />
    </>
  );
}
