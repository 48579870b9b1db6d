"use client";

import Script from "next/script";
import "./api-reference.css";

type ScalarGlobal = { createApiReference: (selector: string, configuration: Record<string, unknown>) => unknown };

/**
 * Mounts Scalar's renderer once its bundle (served by this app) is ready, on first load and on client navigation
 * alike. The element is not named "api-reference": the bundle would mount a second, unconfigured copy there.
 */
export function ApiReference({ bundleUrl, configuration }: { bundleUrl: string; configuration: Record<string, unknown> }) {
  return (
    <>
      <div id="firmaviva-api-reference" data-testid="api-reference" />
      <Script
        src={bundleUrl}
        strategy="afterInteractive"
        onReady={() => {
          (window as unknown as { Scalar: ScalarGlobal }).Scalar.createApiReference("#firmaviva-api-reference", configuration);
        }}
      />
    </>
  );
}
