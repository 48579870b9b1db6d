"use client";

import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { MessageKey } from "@/lib/i18n/messages";
import type { NewProcessValues } from "./new-process-values";
import { ContactFields } from "./contact-fields";
import { StampStyleFields } from "./stamp-style-fields";

type Props = {
  index: number;
  nationalities: string[];
  register: UseFormRegister<NewProcessValues>;
  errors: FieldErrors<NewProcessValues>;
  /** The display name of the organization's eID provider, or null when none is configured (the eID choice is then explained, not offered). */
  eidProvider: string | null;
  onRemove?: () => void;
  t: (key: MessageKey) => string;
};

/** One signer: ID type and number, alias, contact (e-mail or WhatsApp), identity challenge (none, facial or eID) and stamp style. */
export function SignerFields({ index, nationalities, register, errors, eidProvider, onRemove, t }: Props) {
  const e = errors.signers?.[index];
  const id = (name: string) => `signer-${index}-${name}`;
  return (
    <fieldset className="signer-card" data-testid={`signer-${index}`}>
      <legend>{t("new.signer")} {index + 1}</legend>
      <div className="grid-2">
        <div>
          <label htmlFor={id("nat")}>{t("new.nat")}</label>
          <select id={id("nat")} {...register(`signers.${index}.nat`)}>
            {nationalities.map((n) => <option key={n} value={n}>{t(`nat.${n}` as MessageKey)}</option>)}
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
        <ContactFields idPrefix={`signer-${index}`} type={register(`signers.${index}.contactType`)} value={register(`signers.${index}.contactValue`)} error={e?.contactValue?.message} t={t} />
        <StampStyleFields idPrefix={`signer-${index}`} size={register(`signers.${index}.size`)} orientation={register(`signers.${index}.orientation`)} t={t} />
      </div>
      <fieldset data-testid={`signer-${index}-identity`}>
        <legend>{t("new.identity")}</legend>
        <div className="row wrap">
          <label className="inline"><input type="radio" value="none" {...register(`signers.${index}.identity`)} /> {t("new.identityNone")}</label>
          <label className="inline"><input type="radio" value="facial" {...register(`signers.${index}.identity`)} /> {t("new.facial")}</label>
          <label className="inline"><input type="radio" value="eid" disabled={!eidProvider} aria-describedby={id("eid-help")} {...register(`signers.${index}.identity`)} /> {t("new.eid")}</label>
        </div>
        <p id={id("eid-help")} className="muted" data-testid={`signer-${index}-eid-help`} data-available={String(!!eidProvider)}>
          {eidProvider ? `${t("new.eidWith")} ${eidProvider}.` : t("new.eidUnavailable")}
        </p>
        {e?.identity && <p className="field-error">{e.identity.message}</p>}
      </fieldset>
      {onRemove && <div className="row"><button type="button" className="link-button" onClick={onRemove}>{t("new.removeSigner")}</button></div>}
    </fieldset>
  );
}
