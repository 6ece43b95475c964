import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function DemoI18nPage() {
  return <ComingSoon screen="demoI18n" />;
}
