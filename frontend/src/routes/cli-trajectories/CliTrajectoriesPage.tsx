import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CliTrajectoriesPage() {
  return <ComingSoon screen="cliTrajectories" />;
}
