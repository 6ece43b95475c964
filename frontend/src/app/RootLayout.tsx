import { Suspense, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { PageLoading } from '../components/PageState.tsx';
import { Guard } from './Guard.tsx';
import { isFullScreenPath } from './guard.ts';
import { AppShell, FullScreenLayout } from './shell/Layouts.tsx';

function Frame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return isFullScreenPath(pathname) ? <FullScreenLayout>{children}</FullScreenLayout> : <AppShell>{children}</AppShell>;
}

export function RootLayout() {
  return (
    <Frame>
      <Guard>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Guard>
    </Frame>
  );
}
