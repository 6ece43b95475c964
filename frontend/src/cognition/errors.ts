/**
 * The words to show for a failed call: a 422's first field message (the contract's texts such as
 * 至少选择 2 条认知进行综合), else the server's detail, else the catalogue's message.
 */
export function errorMessage(error: unknown): string | null {
  const known = error as { fieldErrors?: Record<string, string>; detail?: unknown; userMessage?: unknown } | null;
  const field = known?.fieldErrors && Object.values(known.fieldErrors)[0];
  if (field) return field;
  if (typeof known?.detail === 'string' && known.detail !== '') return known.detail;
  if (typeof known?.userMessage === 'string' && known.userMessage !== '') return known.userMessage;
  return error instanceof Error && error.message !== '' ? error.message : null;
}
