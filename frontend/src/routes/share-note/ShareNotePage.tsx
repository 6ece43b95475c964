import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function ShareNotePage() {
  return <ComingSoon screen="shareNote" />;
}
