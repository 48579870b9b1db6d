"use client";

import type { FormHTMLAttributes } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A form whose controls stay disabled until React has hydrated it. react-hook-form writes each
 * field's default value into the DOM when it registers the field, so whatever a person typed or
 * ticked in the server's HTML (a slow phone, a busy machine) would be silently replaced, and a
 * submit before hydration would be a plain GET that loses the form. The gate is a fieldset with
 * `display: contents`, so the form's layout rules still see its fields as children, and no role, so
 * screen readers hear no extra group.
 */
export function HydratedForm({ children, ...form }: FormHTMLAttributes<HTMLFormElement>) {
  const hydrated = useHydrated();
  return (
    <form {...form}>
      <fieldset className="hydration-gate" role="presentation" disabled={!hydrated} data-hydrated={hydrated}>
        {children}
      </fieldset>
    </form>
  );
}
