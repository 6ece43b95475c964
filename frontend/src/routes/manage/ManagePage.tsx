import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function ManagePage() {
  return <ComingSoon screen="manage" />;
}
