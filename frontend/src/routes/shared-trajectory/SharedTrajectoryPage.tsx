import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function SharedTrajectoryPage() {
  return <ComingSoon screen="sharedTrajectory" />;
}
