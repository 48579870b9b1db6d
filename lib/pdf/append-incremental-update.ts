import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObject, PDFRef } from "pdf-lib";
import { tooComplex } from "@/lib/pdf/errors";
import type { LazyPdf } from "@/lib/pdf/open-lazy-pdf";
import { MAX_OBJECT_NUMBER } from "@/lib/pdf/read-xref-sections";

export interface RevisionStart {
  /** Absolute offset at which this revision's first byte will sit. */
  offset: number;
  /** Offset of the previous xref section (the previous startxref value). */
  prevXref: number;
  /** First free object number. */
  size: number;
  /** Whether a newline must separate the previous %%EOF from this revision. */
  needsLeadingEol: boolean;
}

export interface WrittenRevision {
  bytes: Uint8Array;
  /** Absolute offset where each written object's body (after "N 0 obj\n") starts. */
  bodyOffsets: Map<number, number>;
  /** What the next revision needs to continue the chain. */
  next: RevisionStart;
}

const encoder = new TextEncoder();

function latin1Bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
}

function serialize(obj: PDFObject): Uint8Array {
  const out = new Uint8Array(obj.sizeInBytes());
  obj.copyBytesInto(out, 0);
  return out;
}

/**
 * Collects new and changed objects for one incremental update and writes them with an xref
 * section of the same kind as the document's last one (a table for tables and hybrid files).
 * Changed objects are also registered on the LazyPdf so a following revision reads them.
 */
export class IncrementalUpdate {
  private nextNumber: number;
  private readonly objects = new Map<number, { gen: number; body: PDFObject | Uint8Array }>();

  constructor(
    readonly pdf: LazyPdf,
    readonly start: RevisionStart,
  ) {
    this.nextNumber = start.size;
  }

  /**
   * Reserves a new object number (generation 0), above every number the document defines and every
   * number a reference read so far names: a damaged or sloppy file may point at objects it lacks
   * (`18 0 R` with /Size 12), and defining one of those would change what an earlier, possibly
   * signed, revision says.
   */
  allocate(): PDFRef {
    this.nextNumber = Math.max(this.nextNumber, this.pdf.highestReference + 1);
    if (this.nextNumber > MAX_OBJECT_NUMBER) throw tooComplex("no object number left below the PDF limit");
    return PDFRef.of(this.nextNumber++, 0);
  }

  /**
   * Adds or replaces object `ref`; raw bytes are written verbatim as the object's body. A replaced
   * object keeps its generation (from the reference), or readers looking for "3 1 R" miss it.
   */
  put(ref: PDFRef, body: PDFObject | Uint8Array): void {
    this.objects.set(ref.objectNumber, { gen: ref.generationNumber, body });
    if (!(body instanceof Uint8Array)) this.pdf.override(ref.objectNumber, body);
  }

  write(): WrittenRevision {
    const chunks: Uint8Array[] = [];
    const bodyOffsets = new Map<number, number>();
    const entries: { num: number; gen: number; offset: number }[] = [];
    let position = this.start.offset;
    const emit = (chunk: Uint8Array) => {
      chunks.push(chunk);
      position += chunk.length;
    };
    if (this.start.needsLeadingEol) emit(latin1Bytes("\n"));
    const numbers = [...this.objects.keys()].sort((a, b) => a - b);
    for (const num of numbers) {
      const { gen, body } = this.objects.get(num)!;
      entries.push({ num, gen, offset: position });
      emit(latin1Bytes(`${num} ${gen} obj\n`));
      bodyOffsets.set(num, position);
      emit(body instanceof Uint8Array ? body : serialize(body));
      emit(latin1Bytes("\nendobj\n"));
    }
    const xrefOffset = position;
    let size = Math.max(this.start.size, this.nextNumber, this.pdf.highestReference + 1);
    if (this.pdf.xrefKind === "stream") {
      const xrefNumber = size++;
      entries.push({ num: xrefNumber, gen: 0, offset: xrefOffset });
      emit(this.xrefStream(xrefNumber, entries, size));
    } else {
      emit(this.xrefTable(entries, size));
    }
    emit(latin1Bytes(`startxref\n${xrefOffset}\n%%EOF\n`));
    const bytes = new Uint8Array(position - this.start.offset);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return {
      bytes,
      bodyOffsets,
      next: { offset: position, prevXref: xrefOffset, size, needsLeadingEol: false },
    };
  }

  private trailerDict(size: number): PDFDict {
    const trailer = PDFDict.withContext(this.pdf.context);
    trailer.set(PDFName.of("Size"), PDFNumber.of(size));
    for (const key of ["Root", "Info", "ID"]) {
      const value = this.pdf.trailer.get(PDFName.of(key));
      if (value) trailer.set(PDFName.of(key), value);
    }
    trailer.set(PDFName.of("Prev"), PDFNumber.of(this.start.prevXref));
    return trailer;
  }

  private xrefTable(entries: { num: number; gen: number; offset: number }[], size: number): Uint8Array {
    let text = "xref\n";
    for (const run of contiguousRuns(entries)) {
      text += `${run[0].num} ${run.length}\n`;
      for (const { offset, gen } of run) text += `${String(offset).padStart(10, "0")} ${String(gen).padStart(5, "0")} n\r\n`;
    }
    text += `trailer\n${this.trailerDict(size).toString()}\n`;
    return latin1Bytes(text);
  }

  private xrefStream(xrefNumber: number, entries: { num: number; gen: number; offset: number }[], size: number): Uint8Array {
    // W [1 4 2]: type, 32-bit offset, generation; left uncompressed (it is a few dozen bytes)
    const rowSize = 7;
    const data = new Uint8Array(entries.length * rowSize);
    const index: number[] = [];
    let row = 0;
    for (const run of contiguousRuns(entries)) {
      index.push(run[0].num, run.length);
      for (const { offset, gen } of run) {
        data[row * rowSize] = 1;
        new DataView(data.buffer).setUint32(row * rowSize + 1, offset);
        new DataView(data.buffer).setUint16(row * rowSize + 5, gen);
        row++;
      }
    }
    const dict = this.trailerDict(size);
    dict.set(PDFName.of("Type"), PDFName.of("XRef"));
    dict.set(PDFName.of("W"), numbers(this.pdf, [1, 4, 2]));
    dict.set(PDFName.of("Index"), numbers(this.pdf, index));
    dict.set(PDFName.of("Length"), PDFNumber.of(data.length));
    const head = latin1Bytes(`${xrefNumber} 0 obj\n${dict.toString()}\nstream\n`);
    const tail = encoder.encode("\nendstream\nendobj\n");
    const out = new Uint8Array(head.length + data.length + tail.length);
    out.set(head, 0);
    out.set(data, head.length);
    out.set(tail, head.length + data.length);
    return out;
  }
}

function numbers(pdf: LazyPdf, values: number[]): PDFArray {
  const array = PDFArray.withContext(pdf.context);
  for (const v of values) array.push(PDFNumber.of(v));
  return array;
}

function contiguousRuns<T extends { num: number }>(entries: T[]): T[][] {
  const sorted = [...entries].sort((a, b) => a.num - b.num);
  const runs: T[][] = [];
  for (const entry of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1].num + 1 === entry.num) last.push(entry);
    else runs.push([entry]);
  }
  return runs;
}

/** Where the first revision appended to `bytes` starts. */
export function firstRevisionStart(pdf: LazyPdf): RevisionStart {
  const last = pdf.bytes[pdf.bytes.length - 1];
  return {
    offset: pdf.bytes.length,
    prevXref: pdf.startxref,
    size: pdf.size,
    needsLeadingEol: last !== 0x0a && last !== 0x0d,
  };
}
