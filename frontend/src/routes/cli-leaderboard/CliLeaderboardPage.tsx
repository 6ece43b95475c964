import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CliLeaderboardPage() {
  return <ComingSoon screen="cliLeaderboard" />;
}
