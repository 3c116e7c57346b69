/**
 * The opaque id of a scan URL (`/t/<encryptedId>`): URL-safe base64, 24 characters when minted here.
 * Anything else names no tag (404), as a malformed UUID does. Its own module, free of imports, because the
 * server's request hook (lib/http/incoming-requests.ts) reads it before Next sees a request.
 */
export const ENCRYPTED_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
