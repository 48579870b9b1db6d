import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/api-reference";

export const metadata: Metadata = { title: "FirmaViva · API" };

/**
 * Browsable reference of both APIs, rendered in the browser from /api/openapi.json by Scalar.
 * Everything comes from this server: the bundle (./scalar.js), the document, and "Try it" requests,
 * which go straight to the server named in the document (no request proxy, no web fonts).
 */
const scalarConfiguration = {
  url: "/api/openapi.json",
  withDefaultFonts: false,
  // the "Open API Client" button links to client.scalar.com; "Test Request" stays, in the page
  hideClientButton: true,
  showDeveloperTools: "never",
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
};

export default function ApiReferencePage() {
  return <ApiReference bundleUrl="/docs/api/scalar.js" configuration={scalarConfiguration} />;
}
