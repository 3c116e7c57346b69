import type { Metadata } from "next";
import { SwaggerUi } from "./swagger-ui";
import { openApiDocumentUrl, swaggerUiAssetUrl } from "./swagger-assets";

export const metadata: Metadata = {
  title: "API documentation",
  description: "Reference for the Tag Service REST API: tags, profiles, scans, messages, rewards, orders and more.",
};

export default function DocsPage() {
  return (
    <>
      {/* React hoists this into <head>; style-src 'self' allows our own stylesheet. */}
      <link rel="stylesheet" href={swaggerUiAssetUrl("swagger-ui.css")} precedence="default" />
      <div className="border-b border-line bg-canvas">
        <div className="container-page py-8">
          <h1 className="text-3xl font-bold tracking-tight text-ink">API documentation</h1>
          <p className="mt-3 max-w-3xl text-muted">
            Every endpoint lives under <code className="font-mono text-ink">/api/v1</code> and answers JSON. Authenticate
            with <code className="font-mono text-ink">Authorization: Bearer &lt;access token&gt;</code> from{" "}
            <code className="font-mono text-ink">POST /api/v1/auth/login</code>, or with an API key from your dashboard
            in the <code className="font-mono text-ink">X-API-Key</code> header.
          </p>
          <p className="mt-3 text-sm">
            <a href={openApiDocumentUrl} className="font-semibold text-brand-700 underline hover:text-brand-800">
              Download the OpenAPI 3.1 document
            </a>
          </p>
        </div>
      </div>
      <noscript>
        <p className="container-page py-6">
          The interactive reference needs JavaScript. The{" "}
          <a href={openApiDocumentUrl} className="font-semibold text-brand-700 underline">
            OpenAPI document
          </a>{" "}
          has the same content.
        </p>
      </noscript>
      <SwaggerUi bundleSrc={swaggerUiAssetUrl("swagger-ui-bundle.js")} specUrl={openApiDocumentUrl} />
    </>
  );
}
