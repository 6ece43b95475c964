import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CognitionPage() {
  return <ComingSoon screen="cognition" />;
}
