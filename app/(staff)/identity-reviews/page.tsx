import Link from "next/link";
import { requireStaffPage } from "@/lib/http/require-staff-page";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { listIdentityReviews } from "@/lib/identity-assurance/list-identity-reviews";
import { ReviewDecision } from "@/components/identity-reviews/review-decision";
import { formatDateTime } from "@/components/processes/format-date-time";

export const dynamic = "force-dynamic";

/**
 * The identity review queue: each signer whose face matched a portrait they supplied themselves,
 * with everything a reviewer needs to judge the card (issue 25, docs/dashboard.md).
 */
export default async function IdentityReviewsPage() {
  const staff = await requireStaffPage("identity:review");
  const { t, locale } = await getTranslator();
  const { db } = await getServices();
  const reviews = await listIdentityReviews({ organizationId: staff.organizationId }, db);
  const when = (date: Date) => formatDateTime(date, locale, staff.organizationTimeZone);
  return (
    <div className="stack">
      <h1>{t("nav.identityReviews")}</h1>
      <p className="muted">{t("reviews.lead")}</p>
      {reviews.length === 0 && <p className="muted" data-testid="reviews-empty">{t("reviews.empty")}</p>}
      {reviews.map((review) => (
        <section key={review.id} className="card stack" data-testid="identity-review" data-signer-doc={review.signer.docId}>
          <h2>
            {t("reviews.signer")}: {review.signer.alias ? `${review.signer.alias} · ` : ""}
            {review.signer.nat} {review.signer.docId} — <Link href={`/processes/${encodeURIComponent(review.processId)}`}>{review.description || review.processId}</Link>
          </h2>
          <div className="row wrap">
            {(["card", "portrait", "selfie"] as const).map((picture) => (
              <figure key={picture} className="review-picture">
                {/* eslint-disable-next-line @next/next/no-img-element -- private biometric image, never optimized or cached */}
                <img src={`/api/dashboard/identity-reviews/${review.id}/${picture}`} alt={t(`reviews.${picture}`)} style={{ width: picture === "card" ? 360 : 200 }} data-testid={`review-${picture}`} />
                <figcaption className="muted">{t(`reviews.${picture}`)}</figcaption>
              </figure>
            ))}
          </div>
          <dl className="facts">
            <dt>{t("reviews.confirmedNames")}</dt>
            <dd>{review.signer.confirmedNames ? `${review.signer.confirmedNames.given} ${review.signer.confirmedNames.family}` : "—"}</dd>
            <dt>{t("reviews.ocr")}</dt>
            <dd>
              {t("reviews.numberFrom")} {review.card.numberSource === "mrz" ? "MRZ" : "OCR"}
              {review.card.numberSource === "mrz" && ` · ${t("reviews.mrzValid")}: ${review.card.mrzValid ? "✓" : "✗"}`}
              {review.card.expiresOn && ` · ${t("reviews.expires")}: ${review.card.expiresOn}`}
              {review.card.mrzLines && <pre className="mail-body" data-testid="review-mrz">{review.card.mrzLines.join("\n")}</pre>}
            </dd>
            {review.card.expiryProblem && (
              <>
                <dt>{t("reviews.expiryProblem")}</dt>
                <dd className="alert" data-testid="review-expiry-problem">{t(`reviews.expiry.${review.card.expiryProblem}`)}</dd>
              </>
            )}
            {review.nameDifferences.length > 0 && (
              <>
                <dt>{t("reviews.namesDiffer")}</dt>
                <dd className="alert" data-testid="review-name-differences">{review.nameDifferences.join("; ")}</dd>
              </>
            )}
            <dt>{t("reviews.device")}</dt>
            <dd>{review.client?.userAgent ?? "—"}</dd>
            <dt>{t("reviews.address")}</dt>
            <dd>{review.client?.address ?? "—"}</dd>
            <dt>{t("reviews.time")}</dt>
            <dd>{when(review.createdAt)}</dd>
            {review.signRequestedAt && (
              <>
                <dt>{t("reviews.signRequested")}</dt>
                <dd data-testid="review-sign-requested">{when(review.signRequestedAt)}</dd>
              </>
            )}
            <dt>{t("reviews.attemptsAfterReject")}</dt>
            <dd>{review.signer.attemptsLeftAfterReject}</dd>
          </dl>
          <ReviewDecision reviewId={review.id} labels={{ approve: t("reviews.approve"), reject: t("reviews.reject"), reason: t("reviews.reason") }} />
        </section>
      ))}
    </div>
  );
}
