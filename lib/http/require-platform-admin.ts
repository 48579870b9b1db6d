import { notFound } from "next/navigation";
import { requireStaff } from "./require-staff";

/** Platform administration exists only for platform administrators; others see a 404, not a hint. */
export async function requirePlatformAdmin() {
  const staff = await requireStaff();
  if (!staff.isPlatformAdmin) notFound();
  return staff;
}
