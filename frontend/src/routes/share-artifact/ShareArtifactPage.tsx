import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function ShareArtifactPage() {
  return <ComingSoon screen="shareArtifact" />;
}
