"use client";

/** Unexpected failures show a plain message with a way forward, never a stack trace. */
export default function SignerPageError({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="signer-page" id="content">
      <div className="signer-card card stack" role="alert">
        <h1>Ocurrió un error / Something went wrong</h1>
        <p>No pudimos cargar esta página. Inténtelo de nuevo en unos minutos.</p>
        <p lang="en">We could not load this page. Please try again in a few minutes.</p>
        <button type="button" className="button" onClick={reset}>
          Reintentar / Retry
        </button>
      </div>
    </main>
  );
}
