import { LOGO_MAX_BYTES, LOGO_TYPES } from '@caredeck/contracts';

/** A chosen picture as the data URL the API takes, or a reason to refuse it before sending. */
export async function logoDataUrl(file: File): Promise<{ url: string } | { error: 'type' | 'size' }> {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return { error: 'type' };
  if (file.size > LOGO_MAX_BYTES) return { error: 'size' };
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
  return { url };
}
