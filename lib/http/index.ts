export { route, preflight, otherMethods, errorResponse, type HandlerInput } from "./route";
export { downloadResponse } from "./download";
export { defineEndpoint, type Endpoint } from "./endpoint";
export { paginated, created, respond, Paginated } from "./envelope";
export { paginationQuery, cursorPaginationQuery, pageOffset, type PaginationQuery, type CursorPaginationQuery } from "./pagination";
export { uuidParam, idParams } from "./params";
