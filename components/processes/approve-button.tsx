"use client";

import { useState, useTransition } from "react";
import { approveProcessAction } from "@/app/(staff)/processes/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

export function ApproveButton({ processId, label }: { processId: string; label: string }) {
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <HydrationGate>
      <div className="row wrap">
        <button type="button" className="button" disabled={pending} onClick={() => start(async () => {
          const result = await approveProcessAction(processId);
          setMessage({ ok: result.ok, text: result.message });
        })}>
          {label}
        </button>
        {message && <span role="status" className={message.ok ? "muted" : "field-error"}>{message.text}</span>}
      </div>
    </HydrationGate>
  );
}
