export type UploadOutcome = { status: number; body: unknown };

/** fetch() cannot report upload progress; XMLHttpRequest can. Resolves with the status and parsed JSON body. */
export function uploadWithProgress(url: string, method: string, form: FormData, onProgress: (fraction: number) => void): Promise<UploadOutcome> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // plain-text answers stay text
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error("network"));
    xhr.send(form);
  });
}
