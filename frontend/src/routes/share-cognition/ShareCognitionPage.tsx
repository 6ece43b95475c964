import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function ShareCognitionPage() {
  return <ComingSoon screen="shareCognition" />;
}
