import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';
import { t } from '../../shared/i18n';

/** The short link's QR code as SVG (the qrcode library), shown as an image and offered as a file. */
export function QrCode(props: { url: string; code: string }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toString(props.url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#1b2433', light: '#ffffff' } }).then(
      (svg) => current && setSource(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
    );
    return () => {
      current = false;
    };
  }, [props.url]);
  if (!source) return <p class="help">{t('loading')}</p>;
  return (
    <div class="qr">
      <img src={source} alt={t('qrAlt', { url: props.url })} width={220} height={220} />
      <a class="button small" href={source} download={`${props.code}.svg`}>
        {t('downloadQr')}
      </a>
    </div>
  );
}
