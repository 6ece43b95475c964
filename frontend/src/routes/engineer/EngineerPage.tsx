import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function EngineerPage() {
  return <ComingSoon screen="engineer" />;
}
