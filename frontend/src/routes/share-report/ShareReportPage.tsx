import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function ShareReportPage() {
  return <ComingSoon screen="shareReport" />;
}
