import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function ShareConversationPage() {
  return <ComingSoon screen="shareConversation" />;
}
