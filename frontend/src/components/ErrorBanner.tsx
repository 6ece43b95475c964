import type { ApiError } from '../api/client.ts';
import { CircleAlertIcon } from '../ui/icons.ts';

/**
 * Shows a catalogue error: its title, the user message when it says more than the title, and the
 * server's own detail when the catalogue text is generic (a 401 at login reads "认证失败，请重新登录"
 * while the server knows it was the password). In a `form`, only that reason, when there is one.
 */
export function ErrorBanner({ error, form = false }: { error: ApiError; form?: boolean }) {
  // A form's refusal (a wrong password, a name taken) is one sentence: the server's reason says it all.
  if (form && error.detail !== undefined) {
    return (
      <div className="banner banner-error" role="alert">
        <CircleAlertIcon size={18} className="banner-icon" />
        <div>
          <strong>{error.detail}</strong>
        </div>
      </div>
    );
  }
  const showMessage = error.userMessage !== error.title && !error.userMessage.startsWith(error.title);
  const showDetail = error.detail !== undefined && error.detail !== error.userMessage && !error.userMessage.includes(error.detail);
  return (
    <div className="banner banner-error" role="alert">
      <CircleAlertIcon size={18} className="banner-icon" />
      <div>
        <strong>{showMessage ? error.title : error.userMessage}</strong>
        {showMessage && <p>{error.userMessage}</p>}
        {showDetail && <p className="banner-detail">{error.detail}</p>}
      </div>
    </div>
  );
}
