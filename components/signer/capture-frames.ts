/** Browser helpers of the selfie step: camera access and JPEG frames from the live video. */

export type CameraProblem = "denied" | "nocamera" | "unsupported";

export async function openFrontCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw cameraError("unsupported");
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: "user", width: { ideal: 640 }, height: { ideal: 480 } } });
  } catch (error) {
    const name = (error as DOMException)?.name;
    throw cameraError(name === "NotAllowedError" || name === "SecurityError" ? "denied" : name === "NotFoundError" || name === "OverconstrainedError" || name === "NotReadableError" ? "nocamera" : "denied");
  }
}

function cameraError(problem: CameraProblem) {
  return Object.assign(new Error(problem), { problem });
}

export function cameraProblemOf(error: unknown): CameraProblem {
  return (error as { problem?: CameraProblem })?.problem ?? "denied";
}

/** One unmirrored JPEG of the current video frame, at most `maxWidth` wide (small uploads on slow networks). */
export function grabFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement, maxWidth = 640): Promise<Blob> {
  const scale = Math.min(1, maxWidth / (video.videoWidth || maxWidth));
  canvas.width = Math.round((video.videoWidth || 640) * scale);
  canvas.height = Math.round((video.videoHeight || 480) * scale);
  canvas.getContext("2d")!.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("toBlob failed"))), "image/jpeg", 0.85));
}

/** A photo chosen or taken for the ID document, re-encoded as JPEG of at most 1600 px (EXIF orientation applied). */
export async function shrinkPhoto(file: File, maxSide = 1600): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("toBlob failed"))), "image/jpeg", 0.9));
  } catch {
    return file; // the server says if it cannot read it
  }
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
