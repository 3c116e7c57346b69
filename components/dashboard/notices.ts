/** `?notice=` messages after a row action (revoke) redirected back to its page. */
export function noticeFrom(params: Record<string, string | string[] | undefined>, messages: Record<string, { tone: "success" | "error"; text: string }>) {
  const value = params.notice;
  const key = Array.isArray(value) ? value[0] : value;
  return key ? messages[key] : undefined;
}
