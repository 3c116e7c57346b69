export * from "./users";
export * from "./email";
