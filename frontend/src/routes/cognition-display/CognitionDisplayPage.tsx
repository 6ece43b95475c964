import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CognitionDisplayPage() {
  return <ComingSoon screen="cognitionDisplay" />;
}
