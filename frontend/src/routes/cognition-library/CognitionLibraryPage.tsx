import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CognitionLibraryPage() {
  return <ComingSoon screen="cognitionLibrary" />;
}
