import Link from "next/link";
import type { WorkQueue } from "@/lib/staff-home/load-work-queue";
import type { Locale, MessageKey } from "@/lib/i18n/messages";
import { fillMessage } from "@/lib/i18n/fill-message";
import { formatDateTime } from "@/components/processes/format-date-time";
import { SignerChanges } from "@/components/processes/signer-changes";
import { UnlockSignerButton } from "@/components/processes/unlock-signer-button";
import { RedeliverButton } from "@/components/processes/redeliver-button";

type Props = { queue: WorkQueue; canUnlock: boolean; canRedeliver: boolean; now: Date; t: (key: MessageKey) => string; locale: Locale; timeZone: string };

const processHref = (id: string) => `/processes/${encodeURIComponent(id)}`;

/** "hace 3 días": how long the oldest item has waited, in the largest whole unit. */
function age(since: Date, now: Date, t: Props["t"]): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 60) return fillMessage(t("home.ageMinutes"), { n: minutes });
  if (minutes < 48 * 60) return fillMessage(t("home.ageHours"), { n: Math.floor(minutes / 60) });
  return fillMessage(t("home.ageDays"), { n: Math.floor(minutes / 1440) });
}

function Count({ id, count, label, href, children }: { id: string; count: number; label: string; href: string; children?: React.ReactNode }) {
  return (
    <li className="work-item" id={id} data-testid={`work-${id}`} data-count={count}>
      <Link href={href} className="work-count">
        <span className="work-number">{count}</span> <span>{label}</span>
      </Link>
      {children}
    </li>
  );
}

/** The counts of what waits for this staff member, each linking to its list, and the first items of the lists the home holds itself. */
export function WorkQueueSection({ queue, canUnlock, canRedeliver, now, t, locale, timeZone }: Props) {
  const when = (date: Date) => formatDateTime(date, locale, timeZone);
  const more = (count: number, shown: number) => count > shown && <p className="muted">{fillMessage(t("home.more"), { shown })}</p>;
  return (
    <section className="card" aria-labelledby="waiting-title">
      <h2 id="waiting-title">{t("home.waiting")}</h2>
      <ul className="work-list">
        {queue.reviews && (
          <Count id="reviews" count={queue.reviews.count} label={t("home.reviews")} href="/identity-reviews">
            {queue.reviews.oldestAt && <p className="muted" data-testid="oldest-review">{fillMessage(t("home.oldestReview"), { age: age(queue.reviews.oldestAt, now, t) })}</p>}
          </Count>
        )}
        {queue.approvals && <Count id="approvals" count={queue.approvals.count} label={t("home.approvals")} href="/approvals" />}
        {queue.expiring && (
          <Count id="expiring" count={queue.expiring.count} label={t("home.expiring")} href="#expiring">
            <ul className="work-sublist">
              {queue.expiring.items.map((p) => (
                <li key={p.id} data-testid="expiring-item"><Link href={processHref(p.id)}>{p.description || p.id}</Link> <span className="muted">· {fillMessage(t("home.expiringItem"), { when: when(p.expireAt), n: p.unsignedSigners })}</span></li>
              ))}
            </ul>
            {more(queue.expiring.count, queue.expiring.items.length)}
          </Count>
        )}
        {queue.lockedSigners && (
          <Count id="locked" count={queue.lockedSigners.count} label={t("home.locked")} href="#locked">
            <SignerChanges>
              <ul className="work-sublist">
                {queue.lockedSigners.items.map((s) => (
                  <li key={s.id} data-testid="locked-item" data-signer-doc={s.docId}>
                    <Link href={processHref(s.processId)}>{s.alias ? `${s.alias} · ` : ""}{s.nat} {s.docId}</Link> <span className="muted">· {s.description} · {fillMessage(t("home.lockedItem"), { when: when(s.lockedAt) })}</span>
                    {canUnlock && <UnlockSignerButton processId={s.processId} signerId={s.id} label={`${s.nat}:${s.docId}`} locale={locale} />}
                  </li>
                ))}
              </ul>
            </SignerChanges>
            {more(queue.lockedSigners.count, queue.lockedSigners.items.length)}
          </Count>
        )}
        {queue.deadCallbacks && (
          <Count id="callbacks" count={queue.deadCallbacks.count} label={t("home.deadCallbacks")} href="#callbacks">
            <ul className="work-sublist">
              {queue.deadCallbacks.items.map((c) => (
                <li key={c.jobId} data-testid="dead-callback-item" data-process={c.processId}>
                  <Link href={processHref(c.processId)}>{c.description || c.processId}</Link> <span className="muted">· {fillMessage(t("home.deadItem"), { when: when(c.diedAt) })}</span>
                  {canRedeliver && <RedeliverButton processId={c.processId} label={t("detail.redeliver")} />}
                </li>
              ))}
            </ul>
            {more(queue.deadCallbacks.count, queue.deadCallbacks.items.length)}
          </Count>
        )}
      </ul>
    </section>
  );
}
