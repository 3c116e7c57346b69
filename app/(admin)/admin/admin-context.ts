// The admin guard lives beside requireUserContext, where server actions (lib/forms/action.ts) reach it too.
export { requireAdminContext } from "@/lib/http/page-context";
