"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { callSignerApi } from "./call-signer-api";
import { cameraProblemOf, grabFrame, openFrontCamera, shrinkPhoto, wait, type CameraProblem } from "./capture-frames";
import { signerTranslator, type SignerLocale, type SignerMessageKey } from "./signer-messages";
import { HydrationGate } from "@/components/ui/hydrated-form";

type Challenge = "turn-left" | "turn-right" | "look-up" | "smile" | "move-closer";
type Phase = "intro" | "starting" | "preview" | "look" | "move" | "checking" | "camera-problem";
type Feedback = { tone: "error" | "info"; text: string; detail?: string } | null;

/** Per movement: time to react to the instruction, then this many frames while the signer moves. */
const REACT_MS = 1000;
const MOVE_FRAMES = 3;
const FRAME_GAP_MS = 500;
const LOOK_MS = 800;

/**
 * The selfie step: guidance, the front camera with an oval to frame the face, then two short
 * movements the server chooses when the capture starts (frames captured unmirrored as JPEG),
 * checked on the server against the registry photo or the portrait of the ID document photo.
 */
export function FacialCheck(props: { locale: SignerLocale; api: string; attemptsLeft: number; needsIdDocument: boolean; reviewRejectedReason?: string }) {
  const t = signerTranslator(props.locale);
  const router = useRouter();
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [phase, setPhase] = useState<Phase>("intro");
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const [playing, setPlaying] = useState(false);
  const [challenges, setChallenges] = useState<Challenge[]>([]);
  const [step, setStep] = useState(0);
  const [attemptsLeft, setAttemptsLeft] = useState(props.attemptsLeft);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [idDocument, setIdDocument] = useState<Blob | null>(null);
  // the chosen photo is shrunk before use, which takes a moment on a slow phone: a tap on "Activar
  // cámara" meanwhile waits for it instead of saying no photo was chosen
  const idDocumentPending = useRef<Promise<Blob | null>>(Promise.resolve(null));

  const stopCamera = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    setPlaying(false);
  }, []);
  useEffect(() => stopCamera, [stopCamera]);
  // the explanation replaces the button that was pressed: move focus to it so screen readers say why
  useEffect(() => {
    if (phase === "camera-problem") headingRef.current?.focus();
  }, [phase]);

  async function startCamera() {
    if (props.needsIdDocument && !(idDocument ?? (await idDocumentPending.current))) return setFeedback({ tone: "error", text: t("facial.idDocument.required") });
    setFeedback(null);
    setPhase("starting");
    try {
      const stream = await openFrontCamera();
      streamRef.current = stream;
      setPhase("preview");
      const video = videoRef.current!;
      video.srcObject = stream;
      await video.play().catch(() => undefined);
    } catch (error) {
      setProblem(cameraProblemOf(error));
      setPhase("camera-problem");
    }
  }

  async function runChallenge() {
    const video = videoRef.current!;
    const canvas = canvasRef.current!;
    setFeedback(null);
    // the movements are chosen by the server now, and the frames are due within 90 s
    const started = await callSignerApi(`${props.api}/facial/challenge`, { method: "POST" });
    const ticket = started.body as { challenges?: Challenge[]; ticket?: string };
    if (!started.ok || !ticket.ticket || !ticket.challenges) {
      const limited = started.status === 429 && (started.body.reason === "too_many_tickets" || started.body.reason === "too_many_retries");
      setFeedback({ tone: "error", text: t(started.status === 0 ? "error.network" : started.status === 401 ? "error.session" : limited ? (`facial.${started.body.reason}` as SignerMessageKey) : "facial.retry.challenge_expired") });
      if (started.status !== 0 && started.status !== 401 && !limited) router.refresh();
      return;
    }
    setChallenges(ticket.challenges);
    // the ID card is read (OCR takes seconds) while the signer moves; the upload below still carries
    // it and is judged on it whatever this answers, so it is not awaited
    const cardAhead = props.needsIdDocument ? (idDocument ?? (await idDocumentPending.current)) : null;
    if (cardAhead) {
      const ahead = new FormData();
      ahead.append("ticket", ticket.ticket);
      ahead.append("idDocument", cardAhead, "id-document.jpg");
      void callSignerApi(`${props.api}/facial/id-document`, { method: "POST", body: ahead });
    }
    setStep(0);
    setPhase("look");
    await wait(LOOK_MS);
    const frames: Blob[] = [];
    const take = async () => {
      const frame = await grabFrame(video, canvas);
      frames.push(frame);
      // analysed while the signer makes the next movement, so the check below waits for the last frame
      // only; the upload below is judged on its own frames whatever this answers, so it is not awaited
      const ahead = new FormData();
      ahead.append("ticket", ticket.ticket!);
      ahead.append("frame", frame, `frame-${frames.length - 1}.jpg`);
      void callSignerApi(`${props.api}/facial/frame`, { method: "POST", body: ahead });
    };
    await take();
    for (const [index] of ticket.challenges.entries()) {
      setStep(index);
      setPhase("move");
      await wait(REACT_MS);
      for (let i = 0; i < MOVE_FRAMES; i++) {
        await take();
        if (i < MOVE_FRAMES - 1) await wait(FRAME_GAP_MS);
      }
    }
    setPhase("checking");
    const body = new FormData();
    body.append("ticket", ticket.ticket);
    frames.forEach((frame, i) => body.append("frame", frame, `frame-${i}.jpg`));
    const reference = idDocument ?? (await idDocumentPending.current);
    if (reference) body.append("idDocument", reference, "id-document.jpg");
    const answer = await callSignerApi(`${props.api}/facial`, { method: "POST", body });
    const result = answer.body as { status?: string; reason?: string; attemptsLeft?: number };
    if (answer.ok && result.status === "under_review") {
      // a match on the signer's own ID photo: staff review it; the page goes on to the documents
      stopCamera();
      setFeedback({ tone: "info", text: t("facial.underReview") });
      return router.refresh();
    }
    if (answer.ok && result.status === "passed") {
      stopCamera();
      setFeedback({ tone: "info", text: t("facial.passed") });
      return router.refresh();
    }
    if (answer.ok && result.status === "locked") {
      stopCamera();
      return router.refresh();
    }
    if (typeof result.attemptsLeft === "number") setAttemptsLeft(result.attemptsLeft);
    if (answer.ok && result.status === "retry" && result.reason?.startsWith("id_document")) {
      // the ID photo is what to redo: back to where it is chosen, the camera off meanwhile
      stopCamera();
      idDocumentPending.current = Promise.resolve(null);
      setIdDocument(null);
      setPhase("intro");
      return setFeedback({ tone: "error", text: t(`facial.retry.${result.reason}` as SignerMessageKey), detail: t("facial.notCounted") });
    }
    setPhase("preview");
    if (answer.ok && result.status === "retry") {
      setFeedback({ tone: "error", text: t(`facial.retry.${result.reason}` as SignerMessageKey), detail: t("facial.notCounted") });
    } else if (answer.ok && result.status === "failed") {
      setFeedback({ tone: "error", text: t("facial.failed"), detail: t(result.reason === "not_live" ? "facial.failed.live" : "facial.failed.match") });
    } else if (answer.status === 0) {
      setFeedback({ tone: "error", text: t("error.network") });
    } else if (answer.status === 401) {
      setFeedback({ tone: "error", text: t("error.session") });
    } else if (result.reason === "ticket_used" || result.reason === "too_many_retries") {
      // nothing was counted: the signer may start again (after the wait the message names)
      setFeedback({ tone: "error", text: t(`facial.${result.reason}`), detail: t("facial.notCounted") });
    } else {
      stopCamera();
      router.refresh(); // locked, expired or concluded meanwhile: the page says which
    }
  }

  const busy = phase === "look" || phase === "move" || phase === "checking";
  const cameraOn = phase === "preview" || busy;
  const challenge = challenges[step];
  const movement = challenge && t("facial.movementOf", { n: step + 1, total: challenges.length, instruction: t(`facial.${challenge}` as SignerMessageKey) });
  // what the live region says: each change of the camera's status, read out as it happens
  const status = { intro: "", "camera-problem": "", starting: t("facial.starting"), preview: t("facial.ready"), look: t("facial.look"), move: movement || "", checking: t("facial.checking") }[phase];

  return (
    <HydrationGate>
      <section className="signer-card card stack" aria-labelledby="facial-title" data-phase={phase} data-challenges={challenges.join(" ")} data-step={phase === "move" ? `challenge-${step}` : phase}>
        <h1 id="facial-title" ref={phase === "camera-problem" ? undefined : headingRef} tabIndex={-1}>
          {t("facial.title")}
        </h1>
        {phase === "camera-problem" && problem ? (
          <div className="stack" role="alert" data-testid="camera-problem" data-problem={problem}>
            <h2 ref={headingRef} tabIndex={-1}>
              {t(problem === "nocamera" ? "facial.nocamera.title" : problem === "unsupported" ? "facial.unsupported" : "facial.denied.title")}
            </h2>
            {problem !== "unsupported" && <p>{t(problem === "nocamera" ? "facial.nocamera.text" : "facial.denied.text")}</p>}
            <button type="button" className="button button-block" onClick={startCamera}>
              {t("facial.retryCamera")}
            </button>
            <p className="muted">{t("help.contact")}</p>
          </div>
        ) : (
          <>
            {!cameraOn && (
              <>
                {props.reviewRejectedReason && !feedback && (
                  <p className="notice-warn" role="alert" data-testid="review-rejected">
                    {t("facial.reviewRejected", { reason: props.reviewRejectedReason })}
                  </p>
                )}
                <p>{props.needsIdDocument ? t("facial.leadId") : t("facial.lead")}</p>
                <h2>{t("facial.tips")}</h2>
                <ul className="tips">
                  <li>{t("facial.tip.light")}</li>
                  <li>{t("facial.tip.frame")}</li>
                  <li>{t("facial.tip.alone")}</li>
                </ul>
                <p>{t("facial.twoMovements")}</p>
                {props.needsIdDocument && (
                  <div>
                    <label htmlFor="id-document">{t("facial.idDocument")}</label>
                    <input
                      id="id-document"
                      type="file"
                      accept="image/jpeg,image/png,image/webp"
                      capture="environment"
                      aria-describedby="id-document-hint"
                      onChange={async (event) => {
                        const file = event.target.files?.[0];
                        const pending = file ? shrinkPhoto(file) : Promise.resolve(null);
                        idDocumentPending.current = pending;
                        setIdDocument(null);
                        const photo = await pending;
                        if (idDocumentPending.current === pending) setIdDocument(photo);
                      }}
                    />
                    <p id="id-document-hint" className="hint">
                      {t("facial.idDocument.hint")}
                    </p>
                    {idDocument && (
                      <p className="notice" data-testid="id-document-ready">
                        {t("facial.idDocument.ready")}
                      </p>
                    )}
                  </div>
                )}
              </>
            )}
            <div className={cameraOn ? "selfie-frame" : "selfie-frame hidden"}>
              <video ref={videoRef} playsInline muted aria-label={t("facial.preview")} aria-describedby="selfie-description" onPlaying={() => setPlaying(true)} />
              <div className="selfie-oval" aria-hidden="true" />
            </div>
            <p id="selfie-description" className="visually-hidden">
              {t("facial.previewDescription")}
            </p>
            <canvas ref={canvasRef} hidden />
            {/* in the page from the first render, so that its first change is announced too */}
            <p className={`selfie-instruction${phase === "move" ? " active" : ""}${cameraOn ? "" : " visually-hidden"}`} role="status" aria-live="assertive" aria-atomic="true" data-testid="facial-status">
              {status}
            </p>
            {phase === "preview" && <p className="hint">{t("facial.twoMovements")}</p>}
            {feedback && (
              <div className={feedback.tone === "error" ? "alert" : "notice"} role="alert" data-testid="facial-feedback">
                <p>{feedback.text}</p>
                {feedback.detail && <p>{feedback.detail}</p>}
              </div>
            )}
            <p className="muted" data-testid="attempts-left">
              {t("facial.attemptsLeft")} {attemptsLeft}
            </p>
            {phase === "intro" || phase === "starting" ? (
              <button type="button" className="button button-block" onClick={startCamera} disabled={phase === "starting"}>
                {phase === "starting" ? t("facial.starting") : t("facial.start")}
              </button>
            ) : (
              <button type="button" className="button button-block" onClick={runChallenge} disabled={busy || !playing}>
                {phase === "checking" ? t("facial.checking") : busy ? t("facial.capturing") : feedback ? t("facial.retry") : t("facial.begin")}
              </button>
            )}
          </>
        )}
      </section>
    </HydrationGate>
  );
}
