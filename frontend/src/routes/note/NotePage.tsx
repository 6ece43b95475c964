import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function NotePage() {
  return <ComingSoon screen="note" />;
}
