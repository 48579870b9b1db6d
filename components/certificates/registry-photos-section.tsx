import Link from "next/link";
import type { Locale } from "@/lib/i18n/messages";
import type { RegistryPhotoEntry } from "@/lib/registry-photos/schemas";
import { translatorFor } from "@/components/ui/use-translator";
import { formatDateTime } from "@/components/processes/format-date-time";
import { DeleteRegistryPhotoButton } from "./delete-registry-photo-button";
import { RegistryPhotoForm } from "./registry-photo-form";
import { ReplaceRegistryPhotoButton } from "./replace-registry-photo-button";

type Props = {
  locale: Locale;
  timeZone: string;
  photos: RegistryPhotoEntry[];
  /** The cursor of the page shown (null on the first page) and of the next one. */
  page: { after: string | null; next: string | null };
  /** biometrics:read: without it the photos themselves are never requested. */
  canSeePhotos: boolean;
  canWrite: boolean;
  nationalities: string[];
};

/** The certificates page's registry photos: list, thumbnails, upload, replace and delete. */
export function RegistryPhotosSection({ locale, timeZone, photos, page, canSeePhotos, canWrite, nationalities }: Props) {
  const t = translatorFor(locale);
  return (
    <section className="card stack" id="registry-photos" aria-labelledby="registry-title">
      <h2 id="registry-title">{t("registry.title")}</h2>
      <p className="muted">{t("registry.help")}</p>
      {!canSeePhotos && photos.length > 0 && <p className="muted">{t("registry.noThumbnail")}</p>}
      {photos.length === 0 && !page.after ? <p className="muted" data-testid="registry-empty">{t("registry.empty")}</p> : (
        <table className="table table-stack" data-testid="registry-photos-table">
          <thead>
            <tr>
              {canSeePhotos && <th>{t("registry.photo")}</th>}
              <th>{t("registry.nat")}</th><th>{t("registry.docId")}</th><th>{t("registry.uploadedAt")}</th>
              {canWrite && <th><span className="visually-hidden">{t("common.actions")}</span></th>}
            </tr>
          </thead>
          <tbody>
            {photos.map((p) => (
              <tr key={p.id} data-testid="registry-photo-row" data-person={`${p.nat}:${p.docId}`}>
                {canSeePhotos && (
                  <td data-label={t("registry.photo")}>
                    {/* v= changes on replace, so the browser fetches the new photo for the same row id */}
                    <a href={`/api/dashboard/registry-photos/${p.id}?v=${p.createdAt.getTime()}`} target="_blank" rel="noreferrer">
                      {/* eslint-disable-next-line @next/next/no-img-element -- an encrypted biometric photo behind the staff session: never handed to the image optimizer or its cache */}
                      <img className="registry-thumb" src={`/api/dashboard/registry-photos/${p.id}?v=${p.createdAt.getTime()}`} alt={`${t("registry.thumbnailAlt")} ${p.nat} ${p.docId}`} loading="lazy" />
                    </a>
                  </td>
                )}
                <td data-label={t("registry.nat")}>{p.nat}</td>
                <td data-label={t("registry.docId")}><code>{p.docId}</code></td>
                <td data-label={t("registry.uploadedAt")}>{formatDateTime(p.createdAt, locale, timeZone)}</td>
                {canWrite && (
                  <td data-label="" className="cell-actions">
                    <div className="row wrap">
                      <ReplaceRegistryPhotoButton locale={locale} nat={p.nat} docId={p.docId} />
                      <DeleteRegistryPhotoButton locale={locale} photoId={p.id} nat={p.nat} docId={p.docId} />
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(page.after || page.next) && (
        <nav className="pager" aria-label={t("processes.paging")}>
          {page.after && <Link href="/certificates#registry-photos">{t("registry.first")}</Link>}
          {page.next && <Link href={`/certificates?photos_after=${page.next}#registry-photos`} data-testid="registry-next-page">{t("registry.more")}</Link>}
        </nav>
      )}
      {canWrite ? (
        <>
          <h3>{t("registry.upload")}</h3>
          <RegistryPhotoForm locale={locale} nationalities={nationalities} />
        </>
      ) : <p className="muted">{t("registry.readOnly")}</p>}
    </section>
  );
}
