import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function ShareFolderPage() {
  return <ComingSoon screen="shareFolder" />;
}
