/**
 * An answer's body made of bytes already in memory, without the copy `new Response(bytes)` makes.
 * Node's fetch (undici) copies an ArrayBuffer view it is given as a body, on the main thread: 150-200 ms
 * for a 48 MB signed PDF on this project's 2-core VM, during which no other request is answered.
 * A stream holding the view is not copied. (Next sends a route's answer chunked either way: it drops
 * a Content-Length a handler sets, see next/dist/server/send-response.js.)
 */
export function bytesResponseBody(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}
