export * from "./users";
export * from "./email";
export * from "./auth";
export * from "./tags";
export * from "./notifications";
export * from "./finder";
export * from "./rewards";
export * from "./shop";
