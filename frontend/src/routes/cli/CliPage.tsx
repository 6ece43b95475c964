import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CliPage() {
  return <ComingSoon screen="cli" />;
}
