"use client";

import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { MessageKey } from "@/lib/i18n/messages";
import type { NewProcessValues } from "./new-process-values";

type Props = {
  index: number;
  nationalities: string[];
  register: UseFormRegister<NewProcessValues>;
  errors: FieldErrors<NewProcessValues>;
  onRemove?: () => void;
  t: (key: MessageKey) => string;
};

/** One signer: ID type and number, alias, contact (e-mail or WhatsApp), facial check and stamp style. */
export function SignerFields({ index, nationalities, register, errors, onRemove, t }: Props) {
  const e = errors.signers?.[index];
  const id = (name: string) => `signer-${index}-${name}`;
  return (
    <fieldset className="signer-card" data-testid={`signer-${index}`}>
      <legend>{t("new.signer")} {index + 1}</legend>
      <div className="grid-2">
        <div>
          <label htmlFor={id("nat")}>{t("new.nat")}</label>
          <select id={id("nat")} {...register(`signers.${index}.nat`)}>
            {nationalities.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
          {e?.nat && <p className="field-error">{e.nat.message}</p>}
        </div>
        <div>
          <label htmlFor={id("doc")}>{t("new.docId")}</label>
          <input id={id("doc")} type="text" autoComplete="off" {...register(`signers.${index}.doc_id`)} aria-invalid={!!e?.doc_id} />
          {e?.doc_id && <p className="field-error">{e.doc_id.message}</p>}
        </div>
        <div>
          <label htmlFor={id("alias")}>{t("new.alias")}</label>
          <input id={id("alias")} type="text" {...register(`signers.${index}.signerAlias`)} />
        </div>
        <div>
          <label htmlFor={id("ctype")}>{t("new.contactType")}</label>
          <select id={id("ctype")} {...register(`signers.${index}.contactType`)}>
            <option value="email">{t("new.email")}</option>
            <option value="whatsapp">WhatsApp</option>
            <option value="">{t("new.noContact")}</option>
          </select>
        </div>
        <div>
          <label htmlFor={id("contact")}>{t("new.contact")}</label>
          <input id={id("contact")} type="text" placeholder="persona@empresa.pe / +51987654321" {...register(`signers.${index}.contactValue`)} aria-invalid={!!e?.contactValue} />
          {e?.contactValue && <p className="field-error">{e.contactValue.message}</p>}
        </div>
        <div>
            <label htmlFor={id("size")}>{t("new.stampSize")}</label>
            <select id={id("size")} {...register(`signers.${index}.size`)}>
              <option value="1">1</option>
              <option value="2">2</option>
            </select>
        </div>
        <div>
            <label htmlFor={id("orientation")}>{t("new.orientation")}</label>
            <select id={id("orientation")} {...register(`signers.${index}.orientation`)}>
              <option value="horizontal">{t("new.horizontal")}</option>
              <option value="vertical">{t("new.vertical")}</option>
            </select>
        </div>
      </div>
      <div className="row">
        <label className="inline"><input type="checkbox" {...register(`signers.${index}.facial`)} /> {t("new.facial")}</label>
        {onRemove && <button type="button" className="link-button" onClick={onRemove}>{t("new.removeSigner")}</button>}
      </div>
    </fieldset>
  );
}
