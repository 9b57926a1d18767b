import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** Four modules of white around the code: the quiet zone scanners need. */
const QUIET_ZONE = 4;

/** The dark modules of `text`'s QR code as one SVG path, in module units, offset by the quiet zone. */
export function qrPath(text: string): { size: number; path: string } {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const count = code.getModuleCount();
  let path = '';
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) {
      if (code.isDark(row, col)) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: count + QUIET_ZONE * 2, path };
}

/**
 * The otpauth link as a QR code, drawn here (no image service sees the secret). Loaded on demand: only the
 * enrolment screen needs the encoder. Black on white in every theme, as scanners expect.
 */
export function MfaQrCode({ value, label, px = 200 }: { value: string; label: string; px?: number }) {
  const { size, path } = useMemo(() => qrPath(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="mfa-qr"
      width={px}
      height={px}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
