import { type ReactElement, useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code of `text` as an SVG: one path of dark modules on a light square with the quiet zone the standard asks
 * for, so phones read it in either theme.
 */
export function QrCode({ text, label, size = 184 }: { text: string; label: string; size?: number }): ReactElement {
  const { path, width } = useMemo(() => {
    const qr = encode(text, { ecc: 'M', border: 4 });
    let d = '';
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      });
    });
    return { path: d, width: qr.size };
  }, [text]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${width} ${width}`}
      shapeRendering="crispEdges"
      data-testid="qr-code"
    >
      <rect width={width} height={width} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
