import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CognitionCollectionPage() {
  return <ComingSoon screen="cognitionCollection" />;
}
