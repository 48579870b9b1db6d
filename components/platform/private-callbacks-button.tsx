"use client";

import { useTransition } from "react";
import { setPrivateCallbacksAction } from "@/app/(staff)/platform/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

/**
 * Opens or closes one organization's SSRF guard. Allowing asks first: the server will then POST to
 * and fetch CRLs from this deployment's own internal network for that organization.
 */
export function PrivateCallbacksButton({ domain, allowed }: { domain: string; allowed: boolean }) {
  const [pending, start] = useTransition();
  const label = allowed ? "Prohibir" : "Permitir";
  const onClick = () => {
    if (!allowed && !window.confirm(`¿Permitir que ${domain} envíe callbacks a direcciones de red privada (10.x, 192.168.x, localhost…) de este servidor? Solo para instalaciones propias.`)) return;
    start(async () => {
      const result = await setPrivateCallbacksAction({ domain, allow: !allowed });
      if (!result.ok) window.alert(result.message);
    });
  };
  return (
    <HydrationGate>
      <span className="row">
        <span className={`badge ${allowed ? "badge-suspended" : "badge-active"}`} data-testid={`private-callbacks-${domain}`}>{allowed ? "Permitidos" : "Prohibidos"}</span>
        <button type="button" className="button button-secondary" onClick={onClick} disabled={pending} aria-label={`${label} callbacks a red privada de ${domain}`}>
          {pending ? "…" : label}
        </button>
      </span>
    </HydrationGate>
  );
}
