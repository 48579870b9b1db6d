import type { StampLayout, StampBox } from "@/lib/stamp/layout-stamp";

type Props = { layout: StampLayout; imageUrl: string | null; qr: boolean; lines: string[] };

/** The stamp as it will be drawn (layoutStamp's boxes), scaled to its box: sizes are in container units. */
export function StampPreview({ layout, imageUrl, qr, lines }: Props) {
  const place = (b: StampBox) => ({
    left: `${(b.x / layout.width) * 100}%`,
    top: `${((layout.height - b.y - b.height) / layout.height) * 100}%`,
    width: `${(b.width / layout.width) * 100}%`,
    height: `${(b.height / layout.height) * 100}%`,
  });
  const unit = (points: number) => `${(points / layout.width) * 100}cqw`;
  return (
    <div className="stamp-preview" style={{ borderWidth: `max(1px, ${unit(layout.border)})` }} aria-hidden="true">
      {layout.image && (
        <div className="stamp-preview-image" style={place(layout.image)}>
          {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL, not an optimizable asset */}
          {imageUrl ? <img src={imageUrl} alt="" /> : null}
        </div>
      )}
      {qr && layout.qr && <div className="stamp-preview-qr" style={place(layout.qr)}>QR</div>}
      <div className="stamp-preview-text" style={{ ...place(layout.text), fontSize: unit(layout.fontSize.max) }}>
        {lines.map((line, i) => (
          <p key={i} className={i === 0 ? "title" : undefined}>{line}</p>
        ))}
      </div>
    </div>
  );
}
