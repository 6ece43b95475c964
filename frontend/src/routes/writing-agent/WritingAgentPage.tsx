import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function WritingAgentPage() {
  return <ComingSoon screen="writingAgent" />;
}
