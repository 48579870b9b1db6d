"use client";

import { useState } from "react";
import { usePathname } from "next/navigation";

type Props = { brand: React.ReactNode; menuLabel: string; closeLabel: string; children: React.ReactNode };

/**
 * The staff navigation: a side column on wide screens, a drawer behind a "Menú" button on phones.
 * The drawer remembers the page it was opened on, so following a link closes it.
 */
export function NavDrawer({ brand, menuLabel, closeLabel, children }: Props) {
  const pathname = usePathname();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <nav className="shell-nav" aria-label={menuLabel} data-open={open}>
      <div className="nav-bar">
        {brand}
        <button
          type="button"
          className="button button-secondary nav-toggle"
          aria-expanded={open}
          aria-controls="staff-nav-links"
          onClick={() => setOpenOn(open ? null : pathname)}
          onKeyDown={(event) => event.key === "Escape" && setOpenOn(null)}
        >
          {open ? closeLabel : menuLabel}
        </button>
      </div>
      <div id="staff-nav-links" className="nav-links">
        {children}
      </div>
    </nav>
  );
}
