import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CliTestPage() {
  return <ComingSoon screen="cliTest" />;
}
