"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { login } from "@/app/login/actions";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Labels = {
  email: string;
  password: string;
  submit: string;
  submitting: string;
  invalid: string;
  required: string;
};

export function LoginForm({ labels }: { labels: Labels }) {
  const schema = z.object({
    email: z.string().trim().min(1, labels.required),
    password: z.string().min(1, labels.required),
  });
  const [failed, setFailed] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema) });

  const onSubmit = handleSubmit(async (values) => {
    setFailed(false);
    const result = await login(values);
    if (result?.error) setFailed(true);
  });

  return (
    <HydratedForm className="stack" onSubmit={onSubmit} noValidate>
      {failed && (
        <p className="alert" role="alert">
          {labels.invalid}
        </p>
      )}
      <div>
        <label htmlFor="email">{labels.email}</label>
        <input id="email" type="email" autoComplete="username" aria-invalid={!!errors.email} {...register("email")} />
        {errors.email && <p className="field-error">{errors.email.message}</p>}
      </div>
      <div>
        <label htmlFor="password">{labels.password}</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={!!errors.password}
          {...register("password")}
        />
        {errors.password && <p className="field-error">{errors.password.message}</p>}
      </div>
      <button className="button" type="submit" disabled={isSubmitting}>
        {isSubmitting ? labels.submitting : labels.submit}
      </button>
    </HydratedForm>
  );
}
