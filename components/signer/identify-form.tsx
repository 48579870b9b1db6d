"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { nationalities } from "@/lib/identity-registry/check-national-id";
import { ZIdentityForm } from "@/lib/signers/schemas";
import { postJson } from "./call-signer-api";
import { signerTranslator, type SignerLocale, type SignerMessageKey } from "./signer-messages";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Input = z.input<typeof ZIdentityForm>;
type Output = z.output<typeof ZIdentityForm>;

/** Shared links (and identity links): the signer types the number of their ID document. */
export function IdentifyForm({ locale, api, maxAttempts }: { locale: SignerLocale; api: string; maxAttempts: number }) {
  const t = signerTranslator(locale);
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(ZIdentityForm), defaultValues: { nat: "PER", docId: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    const answer = await postJson(`${api}/session`, values);
    if (answer.ok) return router.refresh();
    if (answer.body.reason === "wrong_id") {
      setProblem(`${t("identify.wrong")} ${t("identify.attemptsLeft")} ${answer.body.attemptsLeft ?? "?"}.`);
      form.setFocus("docId");
      return;
    }
    if (answer.status === 0) return setProblem(t("error.network"));
    router.refresh(); // locked, expired, …: the page shows why
  });

  const fieldError = errors.docId?.message ? t(`identify.${errors.docId.message === "format" ? "format" : "required"}` as SignerMessageKey) : null;
  return (
    <section className="signer-card card stack" aria-labelledby="identify-title">
      <h1 id="identify-title">{t("identify.title")}</h1>
      <p>{t("identify.lead")}</p>
      <HydratedForm onSubmit={onSubmit} noValidate className="stack">
        <div>
          <label htmlFor="nat">{t("identify.nat")}</label>
          <select id="nat" {...form.register("nat")}>
            {nationalities.map((nat) => (
              <option key={nat} value={nat}>
                {t(`identify.nat.${nat}` as SignerMessageKey)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="docId">{t("identify.docId")}</label>
          <input
            id="docId"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby="docId-hint docId-error"
            aria-invalid={Boolean(fieldError || problem)}
            {...form.register("docId")}
          />
          <p id="docId-hint" className="hint">
            {t("identify.docId.hint")}
          </p>
          <p id="docId-error" className="field-error" role="alert">
            {fieldError ?? problem ?? ""}
          </p>
        </div>
        <button type="submit" className="button button-block" disabled={isSubmitting}>
          {isSubmitting ? t("identify.submitting") : t("identify.submit")}
        </button>
        <p className="hint">{t("identify.maxAttempts", { n: maxAttempts })}</p>
      </HydratedForm>
    </section>
  );
}
