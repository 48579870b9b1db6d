"use client";

import { createContext, useContext, useState, type ReactNode } from "react";

export type ChangeOutcome = { ok: boolean; text: string };

const Report = createContext<(outcome: ChangeOutcome) => void>(() => {});

/** For the row actions of the signers table: the outcome of a change. */
export function useReportSignerChange() {
  return useContext(Report);
}

/**
 * Holds the outcome of a signer change above the table: a removed signer's row unmounts with its
 * state, so the message has to live outside it.
 */
export function SignerChanges({ children }: { children: ReactNode }) {
  const [outcome, setOutcome] = useState<ChangeOutcome | null>(null);
  return (
    <Report.Provider value={setOutcome}>
      {outcome && (
        <p role="status" className={outcome.ok ? "notice" : "alert"} data-testid="signer-change-outcome">
          {outcome.text}
        </p>
      )}
      {children}
    </Report.Provider>
  );
}
