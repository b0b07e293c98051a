// SHA-256 of a file's bytes as lowercase hex: what exports and share links record to name an
// uploaded file without carrying it. null where the browser offers no SubtleCrypto (an
// insecure context: plain http on a remote host).
export async function sha256(bytes) {
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
