"use client";

import { useTransition } from "react";
import { setOrganizationStatusAction } from "@/app/(staff)/platform/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

/** Suspending cuts every token of the organization at once, so it asks first. */
export function OrganizationStatusButton({ domain, status }: { domain: string; status: "active" | "suspended" }) {
  const [pending, start] = useTransition();
  const next = status === "active" ? "suspended" : "active";
  const label = status === "active" ? "Suspender" : "Reactivar";
  const onClick = () => {
    if (next === "suspended" && !window.confirm(`¿Suspender ${domain}? Sus tokens y credenciales dejarán de funcionar de inmediato; sus datos se conservan.`)) return;
    start(async () => {
      const result = await setOrganizationStatusAction(domain, next);
      if (!result.ok) window.alert(result.message);
    });
  };
  return (
    <HydrationGate>
      <button type="button" className="button button-secondary" onClick={onClick} disabled={pending} aria-label={`${label} ${domain}`}>
        {pending ? "…" : label}
      </button>
    </HydrationGate>
  );
}
