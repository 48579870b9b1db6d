import type { Locale } from "@/lib/i18n/messages";
import { DEFAULT_TIME_ZONE } from "@/lib/i18n/time-zones";
import type { VerifyMessages } from "@/lib/verification/verify-messages";
import type { Change } from "@/lib/verification/classify-revision-changes";
import type { SignatureReport, VerificationReport } from "@/lib/verification/verification-report";

type Props = {
  report: VerificationReport;
  t: VerifyMessages;
  locale: Locale;
  /** Staff pages pass their organization's zone; the public page shows Peru time (DEFAULT_TIME_ZONE). */
  timeZone?: string;
};

/** The verdict first (one sentence a person can act on), then each signature's facts. */
export function VerificationReportView({ report, t, locale, timeZone = DEFAULT_TIME_ZONE }: Props) {
  if (report.signatures.length === 0) return <p className="alert" data-testid="verify-report">{t.none}</p>;
  const good = report.verdict === "valid";
  return (
    <section className="stack" data-testid="verify-report">
      <p className={good ? "badge badge-signed" : "alert"} role={good ? "status" : "alert"} data-testid="verify-overall" style={{ whiteSpace: "normal" }}>
        {t.overall[report.verdict]}
      </p>
      {report.findings.length > 0 && (
        <div data-testid="verify-findings">
          <strong>{t.findings}</strong>
          <ul className="muted" style={{ margin: "0.25rem 0 0", paddingLeft: "1.2rem" }}>
            {report.findings.map((finding, i) => <li key={i}>{finding}</li>)}
          </ul>
        </div>
      )}
      {report.signatures.map((signature, i) => <SignatureCard key={i} index={i + 1} signature={signature} t={t} locale={locale} timeZone={timeZone} />)}
      <p className="muted">{t.sha}: <code style={{ overflowWrap: "anywhere" }}>{report.sha256}</code></p>
    </section>
  );
}

function SignatureCard({ index, signature: s, t, locale, timeZone }: { index: number; signature: SignatureReport; t: VerifyMessages; locale: Locale; timeZone: string }) {
  const format = (iso: string) => new Date(iso).toLocaleString(locale === "es" ? "es-PE" : "en-US", { timeZone, timeZoneName: "short" });
  const intact = s.integrity === "intact";
  const stamp = s.timeStamp;
  return (
    <article className="signer-card stack" data-testid="verify-signature" aria-labelledby={`signature-${index}`}>
      <h2 id={`signature-${index}`} style={{ fontSize: "1.1rem", margin: 0 }}>
        {s.kind === "signature" ? t.signature : t.timestamp} {index}
      </h2>
      <p className={s.status === "valid" ? "badge badge-signed" : "alert"} data-testid="verify-verdict" style={{ margin: 0, justifySelf: "start", whiteSpace: "normal" }}>
        {t.verdict[s.status]}
      </p>
      <dl className="facts">
        <dt>{s.kind === "signature" ? t.signer : t.authority}</dt>
        <dd>{s.signer ?? "—"}</dd>
        {s.signerOrganization && (
          <>
            <dt>{t.vouchedBy}</dt>
            <dd data-testid="verify-signer-organization">{s.signerOrganization}</dd>
          </>
        )}
        <dt>{t.when}</dt>
        <dd>{s.signingTime ? `${format(s.signingTime.at)} (${t.source[s.signingTime.source]})` : "—"}</dd>
        {s.kind === "signature" && (
          <>
            <dt>{t.ts}</dt>
            <dd data-testid="verify-timestamp">
              {stamp ? `${format(stamp.at)}${stamp.authority ? ` — ${stamp.authority}` : ""}${!stamp.matchesSignature ? ` — ${t.tsMismatch}` : !stamp.valid ? ` — ${t.tsInvalid}` : !stamp.trusted ? ` — ${t.tsUntrusted}` : ""}` : t.noTs}
            </dd>
            <dt>{t.level}</dt>
            <dd data-testid="verify-level">{s.level ?? t.levelNone}</dd>
            {s.identityLevel && (
              <>
                <dt>{t.identity}</dt>
                <dd data-testid="verify-identity-level" data-level={s.identityLevel}>
                  {t.identityLevel[s.identityLevel]}
                  {s.signerOrganization ? ` — ${s.signerOrganization}` : ""}
                </dd>
                {s.eidIssuer && (
                  <>
                    <dt>{t.eidIssuer}</dt>
                    <dd data-testid="verify-eid-issuer"><code style={{ overflowWrap: "anywhere" }}>{s.eidIssuer}</code></dd>
                  </>
                )}
              </>
            )}
          </>
        )}
        <dt>{t.integrity}</dt>
        <dd data-testid="verify-integrity">
          {t.integrityText[s.integrity]}
          {s.integrity === "unsupported" && s.detail ? <span className="muted"> ({s.detail})</span> : null}
        </dd>
        {s.weakAlgorithms && s.weakAlgorithms.length > 0 && (
          <>
            <dt>{t.weak}</dt>
            <dd data-testid="verify-weak">{`${s.weakAlgorithms.join(", ")}: ${t.weakText}`}</dd>
          </>
        )}
        <dt>{t.chain}</dt>
        <dd data-testid="verify-chain">
          {!intact ? t.chainText.unchecked : t.chainText[s.chain.status]}
          {intact && s.chain.status !== "trusted" && s.chain.reason ? <span className="muted"> ({s.chain.reason})</span> : null}
        </dd>
        {intact && s.chain.status !== "unchecked" && (
          <>
            <dt>{t.revocation}</dt>
            <dd data-testid="verify-revocation">{t.revocationText[s.chain.revocation]}</dd>
          </>
        )}
        {s.chain.validatedAt && (
          <>
            <dt>{t.validatedAt}</dt>
            <dd>{`${format(s.chain.validatedAt.at)} (${s.chain.validatedAt.source === "timestamp" ? t.source.timestamp : s.chain.validatedAt.source === "claimed" ? t.source.pdf : "—"})`}</dd>
          </>
        )}
        <dt>{t.modified}</dt>
        <dd data-testid="verify-modified">{s.modifiedAfter ? t.yes : t.no}</dd>
      </dl>
      {s.changesAfter.length > 0 && <ChangeList title={t.changes} changes={s.changesAfter} t={t} testId="verify-changes" />}
      {s.allowedChangesAfter.length > 0 && <ChangeList title={t.allowed} changes={dedupe(s.allowedChangesAfter)} t={t} testId="verify-allowed" muted />}
    </article>
  );
}

function ChangeList({ title, changes, t, testId, muted }: { title: string; changes: Change[]; t: VerifyMessages; testId: string; muted?: boolean }) {
  return (
    <div data-testid={testId}>
      <strong>{title}</strong>
      <ul className={muted ? "muted" : undefined} style={{ margin: "0.25rem 0 0", paddingLeft: "1.2rem" }}>
        {changes.map((change, i) => (
          <li key={i}>
            {t.revision} {change.revision}: {t.change[change.kind]}
            {change.object !== undefined ? ` (${t.object} ${change.object})` : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One line per revision and kind: a DSS revision touches several objects. */
function dedupe(changes: Change[]): Change[] {
  const seen = new Set<string>();
  return changes.filter((change) => {
    const key = `${change.revision}:${change.kind}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).map((change) => ({ ...change, object: undefined }));
}
