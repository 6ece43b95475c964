import { ComingSoon } from '../../components/ComingSoon.tsx';

export default function AdminDashboardPage() {
  return <ComingSoon screen="adminDashboard" />;
}
