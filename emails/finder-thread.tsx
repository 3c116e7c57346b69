import { Heading, Section, Text } from "@react-email/components";
import { scamWarningHeading, scamWarningText, type MessageLocale, type ScamSignal } from "@/lib/services/messages/scam-rules";
import { ActionLink } from "./components/action-link";
import { EmailLayout } from "./components/email-layout";
import { emailColors } from "./brand";
import type { AppPath } from "./links";

/**
 * Why the finder gets the e-mail: the owner replied, the finder asked for the link, the item's reward
 * changed, or the item came back to its owner through someone else (or the owner alone) and the
 * conversation was closed.
 */
export type FinderThreadEmailKind = "reply" | "link" | "reward" | "closed";

interface Wording {
  subject: Record<FinderThreadEmailKind, string>;
  intro: Record<FinderThreadEmailKind, string>;
  secret: string;
  button: string;
  copyHint: string;
  reason: string;
  /** Only in the "link" e-mail: someone asked for it on the page, and how to ignore it when that was not you. */
  requested: string;
}

const wording: Record<MessageLocale, Wording> = {
  en: {
    subject: { reply: "The owner replied to your message", link: "Your link to the conversation", reward: "News about the reward for the item you found", closed: "The item is back with its owner" },
    intro: {
      reply: "The owner of the item you found has answered you. Open the conversation to read the reply and write back.",
      link: "Here is the link to your conversation with the owner of the item you found. Open it any time to read replies and write back.",
      reward: "The reward for the item you found has changed. Open the conversation to see where it stands.",
      closed: "The item you wrote about is back with its owner, so this conversation is now closed. Thank you for taking the time to help.",
    },
    secret: "Keep this link to yourself: anyone who has it can read and write in this conversation.",
    button: "Open the conversation",
    copyHint: "If the button does not work, copy this link into your browser:",
    reason: "You receive this because this address was given when writing to an item's owner on Tag Service. We send at most one e-mail every 10 minutes about a conversation.",
    requested: "Someone asked for this e-mail on the conversation's page, using this address. If that was not you, simply ignore it: nothing happens unless the link is opened, and we send this link only once per conversation.",
  },
  es: {
    subject: { reply: "El dueño ha respondido a tu mensaje", link: "Tu enlace a la conversación", reward: "Novedades sobre la recompensa del objeto que encontraste", closed: "El objeto ya está con su dueño" },
    intro: {
      reply: "El dueño del objeto que encontraste te ha respondido. Abre la conversación para leer la respuesta y contestar.",
      link: "Aquí tienes el enlace a tu conversación con el dueño del objeto que encontraste. Ábrelo cuando quieras para leer las respuestas y contestar.",
      reward: "La recompensa del objeto que encontraste ha cambiado. Abre la conversación para ver en qué punto está.",
      closed: "El objeto sobre el que escribiste ya está de vuelta con su dueño, así que esta conversación queda cerrada. Gracias por tomarte el tiempo de ayudar.",
    },
    secret: "No compartas este enlace: quien lo tenga puede leer y escribir en esta conversación.",
    button: "Abrir la conversación",
    copyHint: "Si el botón no funciona, copia este enlace en tu navegador:",
    reason: "Recibes esto porque se indicó esta dirección al escribir al dueño de un objeto en Tag Service. Enviamos como máximo un correo cada 10 minutos por conversación.",
    requested: "Alguien pidió este correo en la página de la conversación, con esta dirección. Si no fuiste tú, simplemente ignóralo: no pasa nada si no se abre el enlace, y este enlace solo se envía una vez por conversación.",
  },
  fr: {
    subject: { reply: "Le propriétaire a répondu à votre message", link: "Votre lien vers la conversation", reward: "Du nouveau sur la récompense de l'objet que vous avez trouvé", closed: "L'objet est de retour chez son propriétaire" },
    intro: {
      reply: "Le propriétaire de l'objet que vous avez trouvé vous a répondu. Ouvrez la conversation pour lire sa réponse et lui écrire.",
      link: "Voici le lien vers votre conversation avec le propriétaire de l'objet que vous avez trouvé. Ouvrez-le quand vous voulez pour lire les réponses et écrire.",
      reward: "La récompense de l'objet que vous avez trouvé a changé. Ouvrez la conversation pour voir où elle en est.",
      closed: "L'objet au sujet duquel vous avez écrit est de retour chez son propriétaire : cette conversation est donc close. Merci d'avoir pris le temps d'aider.",
    },
    secret: "Gardez ce lien pour vous : toute personne qui l'a peut lire et écrire dans cette conversation.",
    button: "Ouvrir la conversation",
    copyHint: "Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :",
    reason: "Vous recevez ce message car cette adresse a été indiquée en écrivant au propriétaire d'un objet sur Tag Service. Nous envoyons au plus un e-mail toutes les 10 minutes par conversation.",
    requested: "Quelqu'un a demandé cet e-mail sur la page de la conversation, avec cette adresse. Si ce n'était pas vous, ignorez-le simplement : rien ne se passe tant que le lien n'est pas ouvert, et ce lien n'est envoyé qu'une fois par conversation.",
  },
  de: {
    subject: { reply: "Der Besitzer hat auf Ihre Nachricht geantwortet", link: "Ihr Link zur Unterhaltung", reward: "Neuigkeiten zur Belohnung für den gefundenen Gegenstand", closed: "Der Gegenstand ist wieder bei seinem Besitzer" },
    intro: {
      reply: "Der Besitzer des Gegenstands, den Sie gefunden haben, hat Ihnen geantwortet. Öffnen Sie die Unterhaltung, um die Antwort zu lesen und zu antworten.",
      link: "Hier ist der Link zu Ihrer Unterhaltung mit dem Besitzer des Gegenstands, den Sie gefunden haben. Öffnen Sie ihn jederzeit, um Antworten zu lesen und zu schreiben.",
      reward: "Die Belohnung für den gefundenen Gegenstand hat sich geändert. Öffnen Sie die Unterhaltung, um den Stand zu sehen.",
      closed: "Der Gegenstand, über den Sie geschrieben haben, ist wieder bei seinem Besitzer, daher ist diese Unterhaltung jetzt geschlossen. Danke, dass Sie sich die Zeit genommen haben zu helfen.",
    },
    secret: "Geben Sie diesen Link nicht weiter: Wer ihn hat, kann diese Unterhaltung lesen und darin schreiben.",
    button: "Unterhaltung öffnen",
    copyHint: "Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:",
    reason: "Sie erhalten diese E-Mail, weil diese Adresse beim Schreiben an den Besitzer eines Gegenstands bei Tag Service angegeben wurde. Wir senden höchstens eine E-Mail alle 10 Minuten pro Unterhaltung.",
    requested: "Jemand hat diese E-Mail auf der Seite der Unterhaltung mit dieser Adresse angefordert. Falls Sie das nicht waren, ignorieren Sie sie einfach: Es passiert nichts, solange der Link nicht geöffnet wird, und dieser Link wird pro Unterhaltung nur einmal gesendet.",
  },
};

export function finderThreadEmailSubject(kind: FinderThreadEmailKind, locale: MessageLocale): string {
  return wording[locale].subject[kind];
}

export interface FinderThreadEmailProps {
  kind: FinderThreadEmailKind;
  locale: MessageLocale;
  /** The thread token: the link is `<APP_URL>/thread?token=<token>` (docs/decisions/0009-secrets-and-token-formats.md: tokens in e-mails ride in `?token=`), which opens `/thread/<token>`. */
  token: string;
  /** Scam signals of the owner's newest reply, explained in the finder's language. */
  warnings?: ScamSignal[];
  appUrl?: string;
}

/**
 * To a finder, in their language: the owner replied (or the finder asked for the link), with the link to
 * the conversation. It names neither the owner nor the item and never quotes the owner's words: the
 * address was typed by the finder and is not confirmed, so the e-mail says no more than the link does.
 */
export function FinderThreadEmail({ kind, locale, token, warnings = [], appUrl }: FinderThreadEmailProps) {
  const words = wording[locale];
  const path = `/thread?token=${encodeURIComponent(token)}` as AppPath;
  return (
    <EmailLayout preview={words.intro[kind]} reason={words.reason} appUrl={appUrl} lang={locale}>
      <Heading as="h1" style={{ color: emailColors.text, fontSize: "22px", lineHeight: "28px", margin: "0 0 16px" }}>
        {words.subject[kind]}
      </Heading>
      <Text style={{ color: emailColors.text, fontSize: "16px", lineHeight: "24px", margin: "0 0 12px" }}>{words.intro[kind]}</Text>
      {warnings.length > 0 ? (
        <Section style={{ borderLeft: "4px solid #b45309", backgroundColor: "#fffbeb", padding: "8px 16px", margin: "0 0 12px" }}>
          <Text style={{ color: "#78350f", fontSize: "15px", lineHeight: "22px", fontWeight: 700, margin: "0 0 4px" }}>{scamWarningHeading(locale)}</Text>
          {warnings.map((code) => (
            <Text key={code} style={{ color: "#78350f", fontSize: "15px", lineHeight: "22px", margin: "0 0 4px" }}>
              {scamWarningText(code, locale)}
            </Text>
          ))}
        </Section>
      ) : null}
      <ActionLink label={words.button} path={path} appUrl={appUrl} copyHint={words.copyHint} />
      <Text style={{ color: emailColors.muted, fontSize: "14px", lineHeight: "20px", margin: kind === "link" ? "0 0 12px" : 0 }}>{words.secret}</Text>
      {kind === "link" ? <Text style={{ color: emailColors.muted, fontSize: "14px", lineHeight: "20px", margin: 0 }}>{words.requested}</Text> : null}
    </EmailLayout>
  );
}

FinderThreadEmail.PreviewProps = { kind: "reply", locale: "en", token: "q3Vd1oGk2m8pYb7Q0wzR9xJtH4sLcN6eA5fU1iO3yKg" } satisfies FinderThreadEmailProps;

export default FinderThreadEmail;
