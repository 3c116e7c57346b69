import { handlers } from "@/lib/http/next-auth";

// next-auth's own endpoints (sign-in callback, CSRF, session, sign-out) for the web pages.
export const { GET, POST } = handlers;
