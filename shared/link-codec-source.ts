import { LinkCodec } from './domain/link-code';
import type { SettingsRepository } from './store/settings-repo';

/**
 * The link codec, from the code secret in the table, kept once read. `issue` creates the
 * secret on first use; `read` never writes (the redirect, read-only operations): it looks
 * the secret up until it exists, that is until a link exists, then keeps it like `issue`.
 * A failed read does not stick: the next call tries again.
 */
export function linkCodecSource(
  settings: Pick<SettingsRepository, 'existingLinkCodeSecret' | 'linkCodeSecret'>,
): (purpose: 'issue' | 'read') => Promise<LinkCodec | undefined> {
  let codec: Promise<LinkCodec> | undefined;
  const read = async (): Promise<LinkCodec | undefined> => {
    if (codec) return codec;
    const secret = await settings.existingLinkCodeSecret();
    if (secret === undefined) return undefined;
    codec ??= Promise.resolve(new LinkCodec(secret));
    return codec;
  };
  return (purpose) => {
    if (purpose === 'read') return read();
    codec ??= settings.linkCodeSecret().then((secret) => new LinkCodec(secret));
    codec.catch(() => (codec = undefined));
    return codec;
  };
}
