"use client";

import { useEffect, useRef, useState } from "react";

type SwaggerUiBundle = ((options: Record<string, unknown>) => unknown) & {
  presets: { apis: unknown };
  plugins: { DownloadUrl: unknown };
};

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUiBundle;
  }
}

// One load per page lifetime, shared by every mount (client-side navigations come back here).
let bundleLoading: Promise<SwaggerUiBundle> | undefined;

/**
 * Loads the bundle with a script element created here: under the nonce + 'strict-dynamic' policy a
 * script added by an already trusted script is allowed, so no inline script and no nonce plumbing
 * is needed, and it works the same after a client-side navigation as on a full page load.
 */
function loadBundle(src: string): Promise<SwaggerUiBundle> {
  if (window.SwaggerUIBundle) return Promise.resolve(window.SwaggerUIBundle);
  bundleLoading ??= new Promise<SwaggerUiBundle>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => (window.SwaggerUIBundle ? resolve(window.SwaggerUIBundle) : reject(new Error("Swagger UI did not load")));
    script.onerror = () => reject(new Error("Swagger UI could not be downloaded"));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    bundleLoading = undefined;
    throw error;
  });
  return bundleLoading;
}

/** The Swagger UI initializer: renders the OpenAPI document at `specUrl` into its own element. */
export function SwaggerUi({ bundleSrc, specUrl }: { bundleSrc: string; specUrl: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    let active = true;
    loadBundle(bundleSrc)
      .then((SwaggerUIBundle) => {
        const domNode = containerRef.current;
        if (!active || !domNode) return;
        SwaggerUIBundle({
          domNode,
          url: specUrl,
          presets: [SwaggerUIBundle.presets.apis],
          plugins: [SwaggerUIBundle.plugins.DownloadUrl],
          layout: "BaseLayout",
          deepLinking: true,
          docExpansion: "list",
          defaultModelsExpandDepth: 0,
          filter: true,
          tryItOutEnabled: false,
          // The public validator is another origin: the CSP would block its badge, and it is offline here.
          validatorUrl: null,
        });
        setState("ready");
      })
      .catch(() => {
        if (active) setState("failed");
      });
    return () => {
      active = false;
    };
  }, [bundleSrc, specUrl]);

  return (
    <>
      {state === "loading" ? (
        <p role="status" className="container-page py-6 text-muted">
          Loading the API reference…
        </p>
      ) : null}
      {state === "failed" ? (
        <p role="alert" className="container-page py-6 text-danger-700">
          The interactive reference could not be loaded.{" "}
          <a href={specUrl} className="font-semibold underline">
            Open the OpenAPI document
          </a>{" "}
          instead.
        </p>
      ) : null}
      {/* Swagger UI pads its own wrapper by 20px; the rest lines it up with the page container. */}
      <div ref={containerRef} className="mx-auto w-full max-w-6xl pb-12 sm:px-1 lg:px-3" />
    </>
  );
}
