import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function CliDocsPage() {
  return <ComingSoon screen="cliDocs" />;
}
