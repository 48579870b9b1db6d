"use server";

import { AuthError } from "next-auth";
import { signIn } from "@/lib/http/staff-session";

export type LoginResult = { error: "invalid" } | undefined;

export async function login(input: { email: string; password: string }): Promise<LoginResult> {
  try {
    await signIn("credentials", { email: input.email, password: input.password, redirectTo: "/" });
  } catch (error) {
    // next-auth signals the successful redirect by throwing; only its own errors mean a refusal.
    if (error instanceof AuthError) return { error: "invalid" };
    throw error;
  }
}
