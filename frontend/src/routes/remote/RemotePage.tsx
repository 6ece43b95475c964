import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function RemotePage() {
  return <ComingSoon screen="remote" />;
}
