import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CollaborationPage() {
  return <ComingSoon screen="collaboration" />;
}
