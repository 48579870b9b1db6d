"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { revealCallbackSecretAction, rotateCallbackSecretAction } from "@/app/(staff)/api-access/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

type Props = { locale: Locale; version: number; source: "env" | "data-dir" };

/** The callback HMAC secret: derived (never stored), revealed on request, rotated by bumping its version. */
export function CallbackSecretCard({ locale, version, source }: Props) {
  const t = translatorFor(locale);
  const [secret, setSecret] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <HydrationGate>
      <section className="card stack" data-testid="callback-secret">
        <h2>{t("api.callbackSecret")}</h2>
        <dl className="facts">
          <dt>{t("api.version")}</dt><dd data-testid="secret-version">v{version}</dd>
          <dt>{t("api.derivation")}</dt><dd>{source === "env" ? t("api.fromEnv") : t("api.fromDataDir")}</dd>
          <dt>{t("api.signature")}</dt><dd><code>X-Signature: sha256=HMAC-SHA256(secret, body)</code></dd>
        </dl>
        {secret && <code className="secret" data-testid="callback-secret-value">{secret}</code>}
        <div className="row wrap">
          <button type="button" className="button button-secondary" disabled={pending} onClick={() => start(async () => {
            const result = await revealCallbackSecretAction();
            if (result.ok) setSecret(result.data ?? null);
            else setMessage(result.message);
          })}>
            {t("api.reveal")}
          </button>
          <ConfirmButton
            label={t("api.rotate")}
            title={t("api.rotateTitle")}
            text={t("api.rotateText")}
            confirmLabel={t("api.rotate")}
            cancelLabel={t("common.cancel")}
            disabled={pending}
            onConfirm={() => start(async () => {
              const result = await rotateCallbackSecretAction();
              setSecret(null);
              setMessage(result.message);
            })}
          />
        </div>
        {message && <p role="status" className="muted">{message}</p>}
      </section>
    </HydrationGate>
  );
}
