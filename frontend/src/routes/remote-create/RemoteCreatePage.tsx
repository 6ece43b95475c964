import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function RemoteCreatePage() {
  return <ComingSoon screen="remoteCreate" />;
}
