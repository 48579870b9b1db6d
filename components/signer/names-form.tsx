"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { ZPersonNames } from "@/lib/identity-registry/schemas";
import type { ProposedNames } from "@/lib/signers/confirm-signer-names";
import { postJson } from "./call-signer-api";
import { signerTranslator, type SignerLocale } from "./signer-messages";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Input = z.input<typeof ZPersonNames>;
type Output = z.output<typeof ZPersonNames>;

/** Identification step, second part: the signer confirms or corrects the names their signature will carry. */
export function NamesForm({ locale, api, proposed, idLabel }: { locale: SignerLocale; api: string; proposed: ProposedNames; idLabel: string }) {
  const t = signerTranslator(locale);
  const router = useRouter();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(ZPersonNames),
    defaultValues: { given_name: proposed.given_name, family_name: proposed.family_name },
  });
  const { errors, isSubmitting } = form.formState;
  // names the identity provider vouched for are shown, not edited
  const fromEid = proposed.source === "eid";

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    const answer = await postJson(`${api}/names`, values);
    if (answer.ok) return router.refresh();
    if (answer.status === 0) return setProblem(t("error.network"));
    if (answer.status === 400) return setProblem(t("names.format"));
    router.refresh(); // expired, locked, …: the page shows why
  });

  const messageOf = (message: string | undefined) => (message ? t(/obligatorio/.test(message) ? "names.required" : "names.format") : "");
  return (
    <section className="signer-card card stack" aria-labelledby="names-title" data-testid="names-step" data-source={proposed.source}>
      <h1 id="names-title">{t("names.title")}</h1>
      <p>{t(proposed.source === "none" ? "names.lead.blank" : proposed.source === "eid" ? "names.lead.eid" : "names.lead")}</p>
      <p className="muted">
        {t("names.document")}: {idLabel}
      </p>
      <HydratedForm onSubmit={onSubmit} noValidate className="stack">
        <div>
          <label htmlFor="given_name">{t("names.given")}</label>
          <input id="given_name" type="text" readOnly={fromEid} defaultValue={proposed.given_name} autoComplete="given-name" aria-describedby="given_name-error" aria-invalid={Boolean(errors.given_name)} {...form.register("given_name")} />
          <p id="given_name-error" className="field-error" role="alert">
            {messageOf(errors.given_name?.message)}
          </p>
        </div>
        <div>
          <label htmlFor="family_name">{t("names.family")}</label>
          <input id="family_name" type="text" readOnly={fromEid} defaultValue={proposed.family_name} autoComplete="family-name" aria-describedby="family_name-error" aria-invalid={Boolean(errors.family_name)} {...form.register("family_name")} />
          <p id="family_name-error" className="field-error" role="alert">
            {messageOf(errors.family_name?.message) || problem || ""}
          </p>
        </div>
        <button type="submit" className="button button-block" disabled={isSubmitting}>
          {isSubmitting ? t("names.submitting") : t("names.submit")}
        </button>
      </HydratedForm>
    </section>
  );
}
