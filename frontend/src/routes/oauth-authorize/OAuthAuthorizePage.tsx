import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function OAuthAuthorizePage() {
  return <ComingSoon screen="oauthAuthorize" />;
}
