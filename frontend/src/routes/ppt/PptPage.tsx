import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function PptPage() {
  return <ComingSoon screen="ppt" />;
}
