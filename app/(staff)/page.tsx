import { requireStaff } from "@/lib/http/require-staff";
import { can } from "@/lib/auth/roles";
import { getTranslator } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { roleName } from "@/lib/i18n/role-names";
import { loadWorkQueue } from "@/lib/staff-home/load-work-queue";
import { summarizeDailyActivity } from "@/lib/staff-home/summarize-daily-activity";
import { listRecentProcessEvents } from "@/lib/staff-home/list-recent-process-events";
import { WorkQueueSection } from "@/components/home/work-queue";
import { ActivityChart } from "@/components/home/activity-chart";
import { RecentEvents } from "@/components/home/recent-events";

export const dynamic = "force-dynamic";

/** The staff home: what waits for this person (by role), the last 30 days, and the latest events (issue 39). */
export default async function HomePage() {
  const staff = await requireStaff();
  const { t, locale } = await getTranslator();
  const { db, config } = await getServices();
  const now = new Date();
  const canRead = can(staff.role, "processes:read");
  const [queue, days, events] = await Promise.all([
    loadWorkQueue({ organizationId: staff.organizationId, role: staff.role, now }, { db }),
    summarizeDailyActivity({ organizationId: staff.organizationId, timeZone: staff.organizationTimeZone, now, days: 30 }, { db }),
    canRead ? listRecentProcessEvents({ organizationId: staff.organizationId, limit: 10 }, { db }) : Promise.resolve([]),
  ]);
  return (
    <div className="stack">
      <h1>{t("home.title")}</h1>
      <p className="muted" data-testid="home-facts">
        {staff.organizationDomain} · {roleName(staff.role, t)} · {config.APP_ENV === "quality" ? t("home.quality") : t("home.production")}
      </p>
      <WorkQueueSection
        queue={queue}
        canUnlock={can(staff.role, "identity:review")}
        canRedeliver={can(staff.role, "processes:notify")}
        now={now}
        t={t}
        locale={locale}
        timeZone={staff.organizationTimeZone}
      />
      <ActivityChart days={days} t={t} />
      {canRead && <RecentEvents events={events} auditLink={can(staff.role, "audit:read")} t={t} locale={locale} timeZone={staff.organizationTimeZone} />}
    </div>
  );
}
