"use client";

import { useState, useTransition } from "react";
import { approveIdentityReviewAction, rejectIdentityReviewAction } from "@/app/(staff)/identity-reviews/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

/** Approve, or reject with a reason the signer will read. */
export function ReviewDecision({ reviewId, labels }: { reviewId: string; labels: { approve: string; reject: string; reason: string } }) {
  const [pending, start] = useTransition();
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const decide = (action: typeof approveIdentityReviewAction) =>
    start(async () => {
      const result = await action({ reviewId, reason });
      setMessage({ ok: result.ok, text: result.message });
    });
  return (
    <HydrationGate>
      <div className="stack review-decision">
        <button type="button" className="button" disabled={pending || message?.ok} onClick={() => decide(approveIdentityReviewAction)} data-testid="review-approve">
          {labels.approve}
        </button>
        <label htmlFor={`reason-${reviewId}`}>{labels.reason}</label>
        <input id={`reason-${reviewId}`} className="input" value={reason} maxLength={300} onChange={(event) => setReason(event.target.value)} data-testid="review-reason" />
        <button type="button" className="button button-secondary" disabled={pending || message?.ok} onClick={() => decide(rejectIdentityReviewAction)} data-testid="review-reject">
          {labels.reject}
        </button>
        {message && <span role="status" className={message.ok ? "muted" : "field-error"} data-testid="review-message">{message.text}</span>}
      </div>
    </HydrationGate>
  );
}
