/**
 * The account domain: what gathers one account's data across the other domains (the data export). It sits
 * above them, so no domain imports it; signing in, sessions and the user row itself are the auth domain's.
 */
export { type AccountExport, exportMe } from "./export";
