/** Ten recovery codes, shown once, with a button that copies them all (plain HTML: the sign-in pages and the areas show it). */
import { useState } from 'react';

export function RecoveryCodes({ codes, copyLabel, copiedLabel }: { codes: string[]; copyLabel: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(codes.join('\n')).catch(() => undefined);
    setCopied(true);
  };
  return (
    <div>
      <ol className="recovery-codes" style={{ columns: 2, fontFamily: 'monospace', fontSize: '1.05rem', lineHeight: 1.8, paddingLeft: '1.6em' }}>
        {codes.map((code) => (
          <li key={code} className="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <button type="button" className="ui-button ui-button--outlined recovery-codes-copy" onClick={copy}>
        {copied ? copiedLabel : copyLabel}
      </button>
    </div>
  );
}

/** The QR code the server drew (SVG) of the otpauth:// link, as an image. */
export function TotpQr({ svg, alt }: { svg: string; alt: string }) {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  return <img src={src} alt={alt} className="totp-qr" width={200} height={200} style={{ display: 'block', margin: '8px 0', background: '#fff' }} />;
}
