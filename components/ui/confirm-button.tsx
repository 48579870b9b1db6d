"use client";

import { useRef } from "react";
import { useHydrated } from "./use-hydrated";

type Props = {
  label: string;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  danger?: boolean;
};

/** A button that asks first, in a real modal <dialog> (focus trapped, Escape cancels), before an action that cannot be undone. */
export function ConfirmButton({ label, title, text, confirmLabel, cancelLabel, onConfirm, disabled, danger = true }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  // a click before hydration would do nothing at all: the button waits for its handler
  const hydrated = useHydrated();
  return (
    <>
      <button type="button" className={danger ? "button button-danger" : "button button-secondary"} disabled={disabled || !hydrated} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} className="dialog" aria-label={title}>
        <form method="dialog" className="stack">
          <h2>{title}</h2>
          <p>{text}</p>
          <div className="row">
            <button type="submit" value="cancel" className="button button-secondary">{cancelLabel}</button>
            <button
              type="button"
              className={danger ? "button button-danger" : "button"}
              onClick={() => {
                dialog.current?.close();
                onConfirm();
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
