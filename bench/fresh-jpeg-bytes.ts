/**
 * The same JPEG with a comment (COM) segment after SOI: other bytes, the same pixels. The face
 * worker keeps analyses by the picture's bytes (lib/signers/kept-face-analyses.ts), and a camera
 * never sends the same bytes twice; benchmarks use this so each frame is analysed as a new one.
 */
export function withComment(jpeg: Uint8Array, text: string): Uint8Array {
  const comment = Buffer.from(text);
  const segment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, comment.length + 2]), comment]);
  return new Uint8Array(Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]));
}
