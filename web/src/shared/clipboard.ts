// Copying text: the async clipboard where the browser allows it; otherwise
// (or when it refuses) the caller's fallback, which selects the text so the
// person can press Ctrl+C.

export function copyText(text: string, copied: () => void, fallback: () => void): void {
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(text).then(copied, fallback);
  else fallback();
}
