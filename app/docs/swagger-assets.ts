import swaggerUiPackage from "swagger-ui-dist/package.json";

/**
 * The files of swagger-ui-dist that /docs needs, served by ./assets/[version]/[file]/route.ts.
 * The package version is part of the URL, so the files can be cached for a year: an upgrade changes it.
 */
export const swaggerUiVersion: string = swaggerUiPackage.version;

export const swaggerUiAssetTypes = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui.css.map": "application/json; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-bundle.js.map": "application/json; charset=utf-8",
} as const;

export type SwaggerUiAsset = keyof typeof swaggerUiAssetTypes;

export function isSwaggerUiAsset(name: string): name is SwaggerUiAsset {
  return Object.hasOwn(swaggerUiAssetTypes, name);
}

export function swaggerUiAssetUrl(name: SwaggerUiAsset): string {
  return `/docs/assets/${swaggerUiVersion}/${name}`;
}

/** The document Swagger UI renders (owned by the API kernel). */
export const openApiDocumentUrl = "/api/v1/openapi.json";
